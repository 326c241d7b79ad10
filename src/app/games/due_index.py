"""The due index: when the sweep must next look at a game, kept so that moves almost never rewrite it.

A game's entry is `(DUE#<shard>, due_at)` on a keys-only index. The shard comes from a hash of the game
id (app.games.keys.due_shard: storage layout, shared by every store), so the sweep's queries spread over
DUE_SHARDS partitions and none runs hot.

The stored `due_at` is meant as a lower bound, not the exact next point of `dixit.deadlines.schedule`: every
point before it has been handled, and every point of any schedule a later move can start is at or after
it. That holds because a move at `m` starts owed moves whose first reminder is at `m + T/2`, while the
sweep never stores a time later than `now + T/2` (T = the game's timeout). So a move leaves the entry
alone, unless the game finishes (the entry goes) or the game had none (one is added): a move costs at
most one index write, and changing who owes what costs nothing on the index. The sweep, visiting an
entry whose schedule moved on, finds nothing reached and stores the next point.

The bound can break: a move whose clock is behind the sweep's (another Lambda, a late request) starts a
schedule before the stored time. So the sweep never trusts it for a deadline: whatever the stored time,
a past deadline is acted on when the entry comes due (`reached`), and the entry stays while a move is
owed.

Public lobbies carry an entry too (refreshed by the sweep every T/2), so the start only has to leave
the lobby listing: one index write, never two.
"""

from __future__ import annotations

from app.core.records import GameRecord, Visibility
from dixit.deadlines import Due, DueKind, due_now, next_due
from dixit.state import GameState, Phase


def _half_timeout(state: GameState) -> int:
    return state.settings.move_timeout_seconds // 2


def at_creation(state: GameState, visibility: Visibility, now: int) -> int | None:
    """A public lobby's first entry; private lobbies get theirs when the game starts."""
    if visibility is Visibility.PUBLIC:
        return now + _half_timeout(state)
    return None


def after_move(record: GameRecord, new: GameState, now: int) -> int | None:
    """The entry a move writes: the stored one, none once finished, the first point if there was none."""
    if new.phase is Phase.FINISHED:
        return None
    if record.due_at is not None:
        return record.due_at
    due = due_now(new, now)
    if due is not None and due.kind is DueKind.TIMEOUT:
        # A deadline already past that now times out (a seat whose account was just deleted, under
        # `wait`): the sweep acts at once.
        return now
    upcoming = next_due(new, after=now)
    return None if upcoming is None else upcoming.at


def reached(state: GameState, stored_due: int, now: int) -> Due | None:
    """What the sweep acts on: the latest point reached by `now` that was not handled before, and a
    timeout whenever its deadline has passed, even before the stored time (a timeout is never handled
    twice: applying it moves the game on)."""
    due = due_now(state, now)
    if due is None:
        return None
    return due if due.at >= stored_due or due.kind is DueKind.TIMEOUT else None


def after_sweep(state: GameState, visibility: Visibility, now: int) -> int | None:
    """The entry the sweep stores once it handled everything up to `now` (None: nothing more to do)."""
    if state.phase is Phase.FINISHED:
        return None
    if state.phase is Phase.LOBBY:
        return at_creation(state, visibility, now)
    upcoming = next_due(state, after=now)
    # Never later than now + T/2, even when quiet hours pushed the deadline further: a move made after
    # this sweep starts owed moves whose first point is at or after that (the lower bound above).
    return None if upcoming is None else min(upcoming.at, now + _half_timeout(state))
