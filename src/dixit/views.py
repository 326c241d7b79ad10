"""What one player, or a spectator, may see of a game.

A view is built only from what the viewer is entitled to: never another player's hand, the draw pile,
the discard order or the seed. Everything leaves the core through here.
"""

from __future__ import annotations

from dataclasses import dataclass

from dixit.settings import Settings
from dixit.state import GameState, Phase, Round, RoundResult


@dataclass(frozen=True, slots=True)
class PlayerView:
    player_id: str
    name: str
    score: int
    hand_size: int


@dataclass(frozen=True, slots=True)
class RoundView:
    number: int
    storyteller_id: str
    clue: str | None
    # Empty until voting: before then the table would reveal how many cards are in.
    table: tuple[str, ...]
    waiting_for: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class YouView:
    player_id: str
    hand: tuple[str, ...]
    submitted: tuple[str, ...]
    votes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GameView:
    game_id: str
    version: int
    phase: Phase
    settings: Settings
    host_id: str
    players: tuple[PlayerView, ...]
    round: RoundView | None
    you: YouView | None
    last_round: RoundResult | None
    winners: tuple[str, ...]


def waiting_for(state: GameState) -> tuple[str, ...]:
    """Whose move the game is waiting on, in seat order."""
    rnd = state.round
    if rnd is None:
        return ()
    if state.phase is Phase.STORYTELLING:
        return (rnd.storyteller_id,)
    done = rnd.submissions if state.phase is Phase.SUBMITTING else rnd.votes
    return tuple(pid for pid in state.player_ids if pid != rnd.storyteller_id and pid not in done)


def _round_view(state: GameState, rnd: Round) -> RoundView:
    return RoundView(
        number=rnd.number,
        storyteller_id=rnd.storyteller_id,
        clue=rnd.clue,
        table=tuple(rnd.table) if state.phase is Phase.VOTING else (),
        waiting_for=waiting_for(state),
    )


def _you_view(state: GameState, rnd: Round | None, player_id: str) -> YouView:
    submitted: tuple[str, ...] = ()
    votes: tuple[str, ...] = ()
    if rnd is not None:
        if player_id == rnd.storyteller_id:
            submitted = (rnd.storyteller_card,) if rnd.storyteller_card else ()
        else:
            submitted = tuple(rnd.submissions.get(player_id, ()))
            votes = tuple(rnd.votes.get(player_id, ()))
    return YouView(player_id, tuple(state.hands.get(player_id, ())), submitted, votes)


def view_for(state: GameState, viewer_id: str | None) -> GameView:
    """The game as `viewer_id` sees it; a non-member (or None) gets the spectator view."""
    rnd = state.round
    is_member = viewer_id is not None and state.player(viewer_id) is not None
    return GameView(
        game_id=state.game_id,
        version=state.version,
        phase=state.phase,
        settings=state.settings,
        host_id=state.host_id,
        players=tuple(
            PlayerView(p.player_id, p.name, p.score, len(state.hands.get(p.player_id, ())))
            for p in state.players
        ),
        round=None if rnd is None else _round_view(state, rnd),
        you=_you_view(state, rnd, viewer_id) if is_member and viewer_id is not None else None,
        last_round=state.last_round,
        winners=tuple(state.winners),
    )
