"""Applying moves to a game: the rules of Dixit and Dixit Odyssey.

`apply` never mutates its input: it returns a new state (and the reveal when the move finished a
round), so a caller can retry the same move against a fresher state after losing a race.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import assert_never

from dixit.cards import check_card_ids, deck_of
from dixit.errors import IllegalMoveError, InvalidMoveError
from dixit.moves import GiveClue, Join, Leave, Move, Start, Submit, Vote
from dixit.scoring import is_large_odyssey_table, score_round
from dixit.settings import MIN_PLAYERS, Ruleset, Settings
from dixit.settings import cards_to_submit as cards_to_submit
from dixit.settings import hand_size as hand_size
from dixit.state import (
    CardResult,
    EndReason,
    GameState,
    Phase,
    Player,
    Round,
    RoundResult,
)
from dixit.text import check_clue
from dixit.text import check_name as check_name


@dataclass(frozen=True, slots=True)
class Applied:
    """The new state and what the move changed, so callers never inspect the move's type."""

    state: GameState
    finished_round: RoundResult | None = None
    joined: tuple[str, ...] = ()
    left: tuple[str, ...] = ()
    game_finished: bool = False


def allowed_vote_counts(rules: Ruleset, player_count: int) -> tuple[int, ...]:
    return (1, 2) if is_large_odyssey_table(rules, player_count) else (1,)


def new_game(game_id: str, *, host_id: str, host_name: str, settings: Settings, seed: int) -> GameState:
    """A game in the lobby with its host seated first."""
    return GameState(
        game_id=game_id,
        settings=settings,
        seed=seed,
        host_id=host_id,
        players=[Player(host_id, check_name(host_name))],
    )


def apply(state: GameState, move: Move) -> Applied:
    """Apply one move, raising InvalidMoveError (malformed) or IllegalMoveError (not legal now)."""
    _check_shape(move)
    new = state.copy()
    finished: RoundResult | None = None
    joined: tuple[str, ...] = ()
    left: tuple[str, ...] = ()
    match move:
        case Join():
            _join(new, move)
            joined = (move.player_id,)
        case Leave():
            _leave(new, move)
            left = (move.player_id,)
        case Start():
            _start(new, move)
        case GiveClue():
            _give_clue(new, move)
        case Submit():
            _submit(new, move)
        case Vote():
            finished = _vote(new, move)
        case _:
            assert_never(move)
    new.version += 1
    game_finished = new.phase is Phase.FINISHED and state.phase is not Phase.FINISHED
    return Applied(new, finished, joined, left, game_finished)


def _check_shape(move: Move) -> None:
    """Errors no state could fix, checked before anything about the game."""
    match move:
        case Join():
            check_name(move.name)
        case GiveClue():
            deck_of(move.card_id)
            check_clue(move.clue)
        case Submit() | Vote():
            if not check_card_ids(list(move.card_ids)):
                raise InvalidMoveError("wrong_card_count", "choose at least one card")
        case _:
            pass


def _require_phase(state: GameState, *phases: Phase) -> None:
    if state.phase not in phases:
        if state.phase is Phase.FINISHED:
            raise IllegalMoveError("game_finished", "the game is over")
        if Phase.LOBBY in phases:
            raise IllegalMoveError("game_started", "the game has already started")
        wanted = " or ".join(p.value for p in phases)
        raise IllegalMoveError("wrong_phase", f"the game is in {state.phase.value}, not {wanted}")


def _require_member(state: GameState, player_id: str) -> None:
    if state.player(player_id) is None:
        raise IllegalMoveError("not_a_player", "you are not seated in this game")


def _current_round(state: GameState) -> Round:
    assert state.round is not None, "a game past the lobby always has a round"
    return state.round


def _join(state: GameState, move: Join) -> None:
    _require_phase(state, Phase.LOBBY)
    if state.player(move.player_id) is not None:
        raise IllegalMoveError("already_joined", "you are already seated in this game")
    if len(state.players) >= state.settings.max_players:
        raise IllegalMoveError("game_full", f"the table seats {state.settings.max_players} players")
    state.players.append(Player(move.player_id, check_name(move.name)))


def _leave(state: GameState, move: Leave) -> None:
    _require_phase(state, Phase.LOBBY)
    _require_member(state, move.player_id)
    state.players = [p for p in state.players if p.player_id != move.player_id]
    if not state.players:
        # Nobody is left to play: the game closes without winners.
        state.phase = Phase.FINISHED
        state.end_reason = EndReason.EVERYONE_LEFT
    elif state.host_id == move.player_id:
        state.host_id = state.players[0].player_id


def _start(state: GameState, move: Start) -> None:
    _require_phase(state, Phase.LOBBY)
    _require_member(state, move.player_id)
    if move.player_id != state.host_id:
        raise IllegalMoveError("not_host", "only the host can start the game")
    count = len(state.players)
    if count < MIN_PLAYERS:
        raise IllegalMoveError("not_enough_players", f"a game needs at least {MIN_PLAYERS} players")
    # Settings.build made sure the decks deal every hand of a full table.
    deck = state.settings.card_ids()
    size = hand_size(count)
    state.next_rng().shuffle(deck)
    state.hands = {}
    for player in state.players:
        state.hands[player.player_id], deck = deck[:size], deck[size:]
    state.pile = deck
    state.discard = []
    first = state.next_rng().randrange(count)
    state.round = Round(number=1, storyteller_id=state.players[first].player_id)
    state.phase = Phase.STORYTELLING


def _take_from_hand(state: GameState, player_id: str, card_ids: tuple[str, ...]) -> None:
    hand = state.hands[player_id]
    missing = [c for c in card_ids if c not in hand]
    if missing:
        raise IllegalMoveError("card_not_in_hand", f"{', '.join(missing)} is not in your hand")
    for card in card_ids:
        hand.remove(card)


def _give_clue(state: GameState, move: GiveClue) -> None:
    _require_phase(state, Phase.STORYTELLING)
    _require_member(state, move.player_id)
    rnd = _current_round(state)
    if move.player_id != rnd.storyteller_id:
        raise IllegalMoveError("not_storyteller", "only the storyteller gives the clue")
    _take_from_hand(state, move.player_id, (move.card_id,))
    rnd.storyteller_card = move.card_id
    rnd.clue = check_clue(move.clue)
    state.phase = Phase.SUBMITTING


def _submit(state: GameState, move: Submit) -> None:
    _require_phase(state, Phase.SUBMITTING)
    _require_member(state, move.player_id)
    rnd = _current_round(state)
    if move.player_id == rnd.storyteller_id:
        raise IllegalMoveError("storyteller_cannot_submit", "the storyteller already played their card")
    if move.player_id in rnd.submissions:
        raise IllegalMoveError("already_submitted", "you have already submitted this round")
    wanted = cards_to_submit(len(state.players))
    if len(move.card_ids) != wanted:
        raise InvalidMoveError("wrong_card_count", f"submit exactly {wanted} card(s)")
    _take_from_hand(state, move.player_id, move.card_ids)
    rnd.submissions[move.player_id] = list(move.card_ids)
    if len(rnd.submissions) == len(state.players) - 1:
        assert rnd.storyteller_card is not None
        # Sorting first makes the order a function of the set of cards and the RNG alone,
        # never of who played what or when.
        table = sorted([rnd.storyteller_card, *(c for cards in rnd.submissions.values() for c in cards)])
        state.next_rng().shuffle(table)
        rnd.table = table
        state.phase = Phase.VOTING


def _vote(state: GameState, move: Vote) -> RoundResult | None:
    _require_phase(state, Phase.VOTING)
    _require_member(state, move.player_id)
    rnd = _current_round(state)
    if move.player_id == rnd.storyteller_id:
        raise IllegalMoveError("storyteller_cannot_vote", "the storyteller does not vote")
    if move.player_id in rnd.votes:
        raise IllegalMoveError("already_voted", "you have already voted this round")
    allowed = allowed_vote_counts(state.settings.rules, len(state.players))
    if len(move.card_ids) not in allowed:
        raise InvalidMoveError("wrong_card_count", f"vote for {' or '.join(map(str, allowed))} card(s)")
    for card in move.card_ids:
        if card not in rnd.table:
            raise IllegalMoveError("card_not_on_table", f"{card} is not on the table")
        if card in rnd.submissions[move.player_id]:
            raise IllegalMoveError("own_card_vote", "you cannot vote for your own card")
    rnd.votes[move.player_id] = list(move.card_ids)
    if len(rnd.votes) < len(state.players) - 1:
        return None
    return _finish_round(state, rnd)


def _finish_round(state: GameState, rnd: Round) -> RoundResult:
    assert rnd.storyteller_card is not None
    assert rnd.clue is not None
    points = score_round(
        rules=state.settings.rules,
        player_ids=state.player_ids,
        storyteller_id=rnd.storyteller_id,
        storyteller_card=rnd.storyteller_card,
        submissions={**rnd.submissions, rnd.storyteller_id: [rnd.storyteller_card]},
        votes=rnd.votes,
    )
    for player in state.players:
        player.score += points[player.player_id]
    result = RoundResult(
        number=rnd.number,
        storyteller_id=rnd.storyteller_id,
        clue=rnd.clue,
        storyteller_card=rnd.storyteller_card,
        cards=tuple(
            CardResult(
                card_id=card,
                owner_id=rnd.owner_of(card) or "",
                voter_ids=tuple(pid for pid in state.player_ids if card in rnd.votes.get(pid, ())),
            )
            for card in rnd.table
        ),
        points=points,
    )
    state.last_round = result
    state.discard.extend(rnd.table)
    if any(p.score >= state.settings.target_score for p in state.players):
        _finish_game(state, EndReason.TARGET_SCORE)
    elif not _refill(state):
        _finish_game(state, EndReason.DECK_EXHAUSTED)
    else:
        next_seat = (state.seat_of(rnd.storyteller_id) + 1) % len(state.players)
        state.round = Round(number=rnd.number + 1, storyteller_id=state.players[next_seat].player_id)
        state.phase = Phase.STORYTELLING
    return result


def _refill(state: GameState) -> bool:
    """Refill every hand in seat order; False when the game must end for want of cards."""
    size = hand_size(len(state.players))
    needed = sum(size - len(state.hands[pid]) for pid in state.player_ids)
    if state.settings.rules is Ruleset.ODYSSEY and len(state.pile) < needed:
        reshuffled = sorted(state.discard)
        state.next_rng().shuffle(reshuffled)
        state.pile.extend(reshuffled)
        state.discard = []
        if len(state.pile) < needed:
            return False
    for pid in state.player_ids:
        hand = state.hands[pid]
        take = min(size - len(hand), len(state.pile))
        hand.extend(state.pile[:take])
        del state.pile[:take]
    # Classic ends once the last card has been drawn (or could not be).
    return bool(state.pile) or state.settings.rules is Ruleset.ODYSSEY


def _finish_game(state: GameState, reason: EndReason) -> None:
    state.phase = Phase.FINISHED
    state.end_reason = reason
    state.round = None
    top = max(p.score for p in state.players)
    state.winners = [p.player_id for p in state.players if p.score == top]
