"""What one player, or a spectator, may see of a game.

A view is built only from what the viewer is entitled to: never another player's hand, the draw pile,
the discard order or the seed. Everything leaves the core through here.
"""

from __future__ import annotations

from enum import StrEnum

from dixit.lean_dataclass import dataclass
from dixit.scoring import allowed_vote_counts
from dixit.settings import MIN_PLAYERS, Settings, cards_to_submit
from dixit.state import EndNote, EndReason, GameState, Phase, Round, RoundResult


class OwedMove(StrEnum):
    CLUE = "clue"
    SUBMIT = "submit"
    VOTE = "vote"


@dataclass(frozen=True, slots=True)
class Owed:
    """A move the game is waiting on: which, how many cards it takes, and until when."""

    move: OwedMove
    # The card counts the move accepts: (1,) for a clue, (1,) or (2,) to submit, (1,) or (1, 2) to vote.
    counts: tuple[int, ...]
    deadline: int

    @property
    def count(self) -> int | None:
        """The one card count the move takes, or None when it accepts a choice (`counts`)."""
        return self.counts[0] if len(self.counts) == 1 else None


@dataclass(frozen=True, slots=True)
class PlayerView:
    player_id: str
    name: str
    score: int
    hand_size: int
    # Timed out twice in a row: the game no longer waits for them until they act again.
    away: bool
    # The end of the player's current or last vacation (epoch seconds), None if they never took one:
    # "on vacation until ..." while it is in the future.
    vacation_until: int | None = None
    vacation_days_left: int = 0
    # The host offered this seat to a newcomer.
    offered: bool = False
    # The host removed this player: their seat leaves the table when the round ends.
    leaving: bool = False
    # Their last owed move timed out and they have not moved since: the host may offer or remove the seat.
    timed_out: bool = False
    # Their account was deleted: the seat plays itself out (dixit.departures) and never answers again.
    departed: bool = False


@dataclass(frozen=True, slots=True)
class WaitingView:
    """A player the game waits on, named so a client can say who."""

    player_id: str
    name: str
    move: OwedMove
    deadline: int


@dataclass(frozen=True, slots=True)
class RoundView:
    number: int
    storyteller_id: str
    clue: str | None
    # Empty until voting: before then the table would reveal how many cards are in.
    table: tuple[str, ...]
    waiting_for: tuple[str, ...]
    waiting: tuple[WaitingView, ...]
    # When the owed moves of this phase time out (None when nothing is owed).
    deadline: int | None
    cards_to_submit: int
    votes_allowed: tuple[int, ...]
    sitting_out: tuple[str, ...]
    # Whose card(s) and whose vote the timeout played for them (`autoplay`), and whose move was extended.
    autoplayed: tuple[str, ...] = ()
    autovoted: tuple[str, ...] = ()
    extended: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class YouView:
    player_id: str
    hand: tuple[str, ...]
    submitted: tuple[str, ...]
    votes: tuple[str, ...]
    owes: Owed | None
    away: bool


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
    your_turn: bool
    last_round: RoundResult | None
    winners: tuple[str, ...]
    end_reason: EndReason | None
    end_note: EndNote | None = None


def waiting_for(state: GameState) -> tuple[str, ...]:
    """Whose move the game is waiting on, in seat order."""
    return state.awaited()


def may_come_back(state: GameState) -> tuple[str, ...]:
    """Away players whose card the round still takes, in seat order.

    Nobody waits for them (their submission was skipped at once), but a card from them before the
    others are done brings them back. So they are shown the move and told it is open, like an owed one;
    without that, an away player never hears of the game again and never returns.
    """
    rnd = state.round
    if state.phase is not Phase.SUBMITTING or rnd is None:
        return ()
    return tuple(
        p.player_id
        for p in state.players
        if p.away and p.player_id in rnd.sitting_out and p.player_id not in rnd.submissions
    )


@dataclass(frozen=True, slots=True)
class _Owing:
    """Who owes what, and by when, in one state: worked out once per view, asked for by every part of it."""

    awaited: tuple[str, ...]
    deadlines: dict[str, int]  # each awaited player's own deadline
    deadline: int | None  # the first of them
    returning: tuple[str, ...]  # may_come_back

    @classmethod
    def of(cls, state: GameState) -> _Owing:
        awaited = state.awaited()
        deadlines = {pid: state.deadline_of(pid) for pid in awaited} if state.round is not None else {}
        return cls(awaited, deadlines, min(deadlines.values(), default=None), may_come_back(state))


def owes(state: GameState, player_id: str) -> Owed | None:
    """The move `player_id` owes now: the game waits on them, or (away) it would still take their card."""
    return _owes(state, player_id, _Owing.of(state))


def _owes(state: GameState, player_id: str, owing: _Owing) -> Owed | None:
    deadline = owing.deadline
    if deadline is None:
        return None
    if player_id in owing.deadlines:
        deadline = owing.deadlines[player_id]
    elif player_id not in owing.returning:
        return None
    count = len(state.players)
    if state.phase is Phase.STORYTELLING:
        return Owed(OwedMove.CLUE, (1,), deadline)
    if state.phase is Phase.SUBMITTING:
        return Owed(OwedMove.SUBMIT, (cards_to_submit(count),), deadline)
    return Owed(OwedMove.VOTE, allowed_vote_counts(state.settings.rules, count), deadline)


def your_turn(state: GameState, player_id: str) -> bool:
    """Whether the game waits on `player_id`: an owed move, or a host whose lobby can start."""
    return _your_turn(state, player_id, _Owing.of(state))


def _your_turn(state: GameState, player_id: str, owing: _Owing) -> bool:
    if state.phase is Phase.LOBBY:
        return state.host_id == player_id and len(state.players) >= MIN_PLAYERS
    return _owes(state, player_id, owing) is not None


def _round_view(state: GameState, rnd: Round, owing: _Owing) -> RoundView:
    count = len(state.players)
    names = {p.player_id: p.name for p in state.players}
    waiting = []
    for pid in owing.awaited:
        owed = _owes(state, pid, owing)
        assert owed is not None
        waiting.append(WaitingView(pid, names[pid], owed.move, owed.deadline))
    ids = state.player_ids
    return RoundView(
        number=rnd.number,
        storyteller_id=rnd.storyteller_id,
        clue=rnd.clue,
        table=tuple(rnd.table) if state.phase is Phase.VOTING else (),
        waiting_for=owing.awaited,
        waiting=tuple(waiting),
        deadline=owing.deadline,
        cards_to_submit=cards_to_submit(count),
        votes_allowed=allowed_vote_counts(state.settings.rules, count),
        sitting_out=tuple(rnd.sitting_out),
        autoplayed=tuple(pid for pid in ids if pid in rnd.autoplayed),
        autovoted=tuple(pid for pid in ids if pid in rnd.autovoted),
        extended=tuple(pid for pid in ids if pid in rnd.extended),
    )


def _you_view(state: GameState, rnd: Round | None, player_id: str, owing: _Owing) -> YouView:
    submitted: tuple[str, ...] = ()
    votes: tuple[str, ...] = ()
    if rnd is not None and player_id not in rnd.joined:  # a seat taken mid-round: not its secret
        if player_id == rnd.storyteller_id:
            submitted = (rnd.storyteller_card,) if rnd.storyteller_card else ()
        else:
            submitted = tuple(rnd.submissions.get(player_id, ()))
            votes = tuple(rnd.votes.get(player_id, ()))
    player = state.player(player_id)
    return YouView(
        player_id,
        tuple(state.hands.get(player_id, ())),
        submitted,
        votes,
        _owes(state, player_id, owing),
        player is not None and player.away,
    )


def view_for(state: GameState, viewer_id: str | None) -> GameView:
    """The game as `viewer_id` sees it; a non-member (or None) gets the spectator view."""
    rnd = state.round
    is_member = viewer_id is not None and state.player(viewer_id) is not None
    owing = _Owing.of(state)
    you = _you_view(state, rnd, viewer_id, owing) if is_member and viewer_id is not None else None
    return GameView(
        game_id=state.game_id,
        version=state.version,
        phase=state.phase,
        settings=state.settings,
        host_id=state.host_id,
        players=tuple(
            PlayerView(
                p.player_id,
                p.name,
                p.score,
                len(state.hands.get(p.player_id, ())),
                p.away,
                p.vacation_until or None,
                state.settings.vacation_days - p.vacation_days_used,
                p.player_id in state.offered,
                p.player_id in state.leaving,
                p.missed >= 1,
                p.player_id in state.departed,
            )
            for p in state.players
        ),
        round=None if rnd is None else _round_view(state, rnd, owing),
        you=you,
        your_turn=is_member and viewer_id is not None and _your_turn(state, viewer_id, owing),
        last_round=state.last_round,
        winners=tuple(state.winners),
        end_reason=state.end_reason,
        end_note=state.end_note,
    )
