"""Applying moves to a game: the entry point of the rules of Dixit and Dixit Odyssey.

`apply` never mutates its input: it returns a new state (and the reveal when the move finished a
round), so a caller can retry the same move against a fresher state after losing a race. The core never
reads a clock: every call says what time it is (`now`, epoch seconds), and the state records when each
owed move started being owed.

This module only checks a move's shape and hands it to the module that decides it: dixit.seating (the
lobby), dixit.round_moves (clue, cards, votes), dixit.timeouts (missed deadlines), dixit.more_time
(vacations, extensions) and dixit.seat_changes (offered and removed seats); dixit.round_flow, dixit.scoring
and dixit.ending decide what follows. The names callers have always imported from here still are.
"""

from __future__ import annotations

from typing import assert_never

from dixit.cards import check_card_ids, deck_of
from dixit.departures import departed_and_due
from dixit.ending import AUTOPLAY_IDLE_ROTATIONS
from dixit.errors import InvalidMoveError
from dixit.guards import IN_PLAY
from dixit.lean_dataclass import dataclass
from dixit.more_time import extend, vacation
from dixit.moves import (
    Extend,
    GiveClue,
    Join,
    Leave,
    Move,
    OfferSeat,
    RemovePlayer,
    Start,
    Submit,
    TakeSeat,
    Timeout,
    Vacation,
    Vote,
)
from dixit.round_flow import move_on_when_done
from dixit.round_moves import give_clue, submit, vote
from dixit.scoring import allowed_vote_counts
from dixit.seat_changes import first_offered_seat, offer_seat, remove_player, take_seat
from dixit.seating import DELETED_PLAYER_NAME, forget_player, join, leave, new_game, start
from dixit.settings import TimeoutPolicy, cards_to_submit, hand_size
from dixit.state import GameState, Phase, RoundResult
from dixit.text import check_clue, check_name
from dixit.timeouts import require_due, timeout

__all__ = [
    "AUTOPLAY_IDLE_ROTATIONS",
    "DELETED_PLAYER_NAME",
    "Applied",
    "allowed_vote_counts",
    "apply",
    "cards_to_submit",
    "check_name",
    "forget_player",
    "hand_size",
    "new_game",
]


@dataclass(frozen=True, slots=True)
class Applied:
    """The new state and what the move changed, so callers never inspect the move's type."""

    state: GameState
    finished_round: RoundResult | None = None
    joined: tuple[str, ...] = ()
    left: tuple[str, ...] = ()
    game_finished: bool = False
    # Players whose owed move a Timeout skipped (not those skipped at once for being away).
    timed_out: tuple[str, ...] = ()


def apply(state: GameState, move: Move, *, now: int) -> Applied:
    """Apply one move at time `now` (epoch seconds, from the caller's clock).

    Raises InvalidMoveError (malformed) or IllegalMoveError (not legal now).
    """
    _check_shape(move)
    if isinstance(move, Timeout):
        require_due(state, now)
        if state.settings.timeout_policy is TimeoutPolicy.WAIT and not departed_and_due(state, now):
            # Under `wait` a deadline only reminds: nothing in play changes, not even the version (but a
            # deleted account's seat, which is moved on: dixit.departures).
            return Applied(state.copy())
    new = state.copy()
    finished: RoundResult | None = None
    joined: tuple[str, ...] = ()
    left: tuple[str, ...] = ()
    timed_out: tuple[str, ...] = ()
    match move:
        case Join() if new.phase in IN_PLAY and new.offered:
            # Once the game started, the invite link seats a newcomer in the first offered seat.
            seat_id = first_offered_seat(new)
            new = take_seat(new, TakeSeat(move.player_id, move.name, seat_id))
            finished = move_on_when_done(new, now)
            joined, left = (move.player_id,), (seat_id,)
        case Join():
            join(new, move)
            joined = (move.player_id,)
        case Leave():
            leave(new, move)
            left = (move.player_id,)
        case Start():
            start(new, move, now)
        case GiveClue():
            give_clue(new, move, now)
        case Submit():
            submit(new, move, now)
        case Vote():
            finished = vote(new, move, now)
        case Timeout():
            timed_out, finished = timeout(new, now)
        case Vacation():
            vacation(new, move, now)
        case Extend():
            extend(new, move, now)
        case OfferSeat():
            offer_seat(new, move, now)
        case RemovePlayer():
            remove_player(new, move)
        case TakeSeat():
            new = take_seat(new, move)
            finished = move_on_when_done(new, now)
            joined, left = (move.player_id,), (move.seat_id,)
        case _:
            assert_never(move)
    new.version += 1
    game_finished = new.phase is Phase.FINISHED and state.phase is not Phase.FINISHED
    # A removed seat leaves at the end of a round, whichever move ended it.
    left = (*left, *(pid for pid in state.player_ids if new.player(pid) is None and pid not in left))
    return Applied(new, finished, joined, left, game_finished, timed_out)


def _check_shape(move: Move) -> None:
    """Errors no state could fix, checked before anything about the game."""
    match move:
        case Join() | TakeSeat():
            check_name(move.name)
        case Vacation():
            if not isinstance(move.days, int) or isinstance(move.days, bool) or move.days < 1:
                raise InvalidMoveError("invalid_vacation_days", "a vacation lasts at least one day")
        case GiveClue():
            deck_of(move.card_id)
            check_clue(move.clue)
        case Submit() | Vote():
            if not check_card_ids(list(move.card_ids)):
                raise InvalidMoveError("wrong_card_count", "choose at least one card")
        case _:
            pass
