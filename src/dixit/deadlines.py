"""When something is due in a game: reminders before a deadline, and the deadline itself.

A pure function of the state, so the sweep computes nothing about rules: it asks what is due, acts
(a reminder, or `Timeout` at the deadline), and stores the next moment returned here.

`schedule` is the game's own plan. What is due at a given moment (`due_now`, `next_due`) also knows
that nobody times out asleep (dixit.asleep): a timeout reached while every past-due player sleeps is
due when the first of them wakes, so a late sweep inside their quiet hours stores that moment instead.
"""

from __future__ import annotations

from dataclasses import replace
from enum import StrEnum

from dixit.asleep import woken_by
from dixit.lean_dataclass import dataclass
from dixit.settings import TimeoutPolicy
from dixit.state import GameState


class DueKind(StrEnum):
    REMINDER = "reminder"  # half the time is gone
    LAST_CALL = "last_call"  # a tenth of the time is left
    TIMEOUT = "timeout"  # the deadline under `skip` or `autoplay` (or a deleted seat's): apply a Timeout
    OVERDUE = "overdue"  # the deadline under `wait`: remind once more, nothing is skipped


@dataclass(frozen=True, slots=True)
class Due:
    at: int
    kind: DueKind
    deadline: int
    # Who owes the move(s) the reminder or timeout is about, in seat order.
    player_ids: tuple[str, ...]


# A player may be nudged by hand once this share of their time for the owed move has passed: before
# then a reminder pesters someone who has most of their time left (the sweep's own comes at half).
NUDGE_SHARE_NUMERATOR, NUDGE_SHARE_DENOMINATOR = 1, 4


def nudge_after(deadline: int, move_timeout_seconds: int) -> int:
    """When an owed move with this deadline may be nudged: a quarter of the move's time in.

    Counted back from the deadline, so an extension or a vacation, which push the deadline out, push
    the nudge out with it.
    """
    left_share = move_timeout_seconds * (NUDGE_SHARE_DENOMINATOR - NUDGE_SHARE_NUMERATOR)
    return deadline - left_share // NUDGE_SHARE_DENOMINATOR


def schedule(state: GameState) -> tuple[Due, ...]:
    """Everything due for the owed moves of the current phase, in time order (empty if nothing is owed)."""
    deadline = state.deadline()
    if deadline is None:
        return ()
    # The first deadline of the phase and whose it is: an extension or a vacation puts some later.
    owed = tuple(pid for pid in state.awaited() if state.deadline_of(pid) == deadline)
    length = state.settings.move_timeout_seconds
    waits = state.settings.timeout_policy is TimeoutPolicy.WAIT
    points = [
        Due(deadline - length + length // 2, DueKind.REMINDER, deadline, owed),
        Due(deadline - length // 10, DueKind.LAST_CALL, deadline, owed),
        Due(deadline, DueKind.OVERDUE if waits else DueKind.TIMEOUT, deadline, owed),
    ]
    gone = [pid for pid in state.awaited() if pid in state.departed]
    if waits and gone:
        # Under `wait` too, a deleted account's seat is moved on at its deadline (dixit.departures);
        # at the same instant as the reminder, the timeout comes last, which is what the sweep acts on.
        at = min(state.deadline_of(pid) for pid in gone)
        points.append(Due(at, DueKind.TIMEOUT, at, tuple(p for p in gone if state.deadline_of(p) == at)))
        points.sort(key=lambda due: due.at)
    return tuple(points)


def schedule_at(state: GameState, now: int) -> tuple[Due, ...]:
    """The schedule as it stands at `now`: a timeout reached while every past-due player sleeps moves to
    the moment the first of them wakes (dixit.asleep), in time order."""
    points = schedule(state)
    woken = woken_by(state, now)
    if woken is None:
        return points
    held = (
        replace(due, at=woken) if due.kind is DueKind.TIMEOUT and due.at <= now else due for due in points
    )
    return tuple(sorted(held, key=lambda due: due.at))


def next_due(state: GameState, after: int | None = None) -> Due | None:
    """The first thing due strictly after `after` (or the first of all), None when nothing is owed."""
    if after is None:
        return next(iter(schedule(state)), None)
    return next((due for due in schedule_at(state, after) if due.at > after), None)


def due_now(state: GameState, now: int) -> Due | None:
    """What to act on at `now`: the latest point already reached (a late sweep skips stale reminders)."""
    reached = [due for due in schedule_at(state, now) if due.at <= now]
    return reached[-1] if reached else None
