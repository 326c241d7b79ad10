"""Nobody timed out asleep: a timeout applied late waits for the owing player to wake.

A deadline already avoids the owing player's quiet hours (dixit.quiet_hours.shift_deadline), with a
grace for a sweep that runs a little after it. But a sweep may come much later than that (a run that
stopped early, a schedule longer than the grace, an outage): a deadline at 21:37 applied at 22:04 times
out someone asleep since 22:00. So the rule is about the instant the timeout is applied, whatever the
deadline: an owed move whose deadline passed times out only while its player is awake. Asleep, it
waits for the end of that night's quiet hours, and the player wakes to their move still theirs to make
until the next sweep.

A seat whose account was deleted (dixit.departures) never sleeps: nobody is there to wake, and waiting
for its old nights would only slow the table.
"""

from __future__ import annotations

from dixit.quiet_hours import UnknownTimeZone, is_quiet, quiet_end
from dixit.settings import TimeoutPolicy
from dixit.state import GameState


def asleep(state: GameState, player_id: str, at: int) -> bool:
    """Whether `player_id` is inside the quiet hours their seat keeps at instant `at`."""
    quiet = state.quiet.get(player_id)
    if quiet is None or player_id in state.departed:
        return False
    try:
        return is_quiet(quiet, at)
    except UnknownTimeZone:  # stored by a newer tz database: never fail a game over it
        return False


def past_due(state: GameState, now: int) -> tuple[str, ...]:
    """The owed moves whose deadline passed at `now` and that a timeout moves on under the game's policy
    (under `wait` only the departed seats'), asleep or not, in seat order."""
    waits = state.settings.timeout_policy is TimeoutPolicy.WAIT
    return tuple(
        pid
        for pid in state.awaited()
        if state.deadline_of(pid) <= now and (pid in state.departed or not waits)
    )


def timing_out(state: GameState, now: int) -> tuple[str, ...]:
    """Who a timeout applied at `now` moves on: the past-due owed moves of those awake at `now`."""
    return tuple(pid for pid in past_due(state, now) if not asleep(state, pid, now))


def woken_by(state: GameState, now: int) -> int | None:
    """When a timeout that sleep holds back at `now` may be applied: the first moment one of the sleepers
    whose deadline passed wakes. None when there is nothing to hold back (no deadline passed, or someone
    past due is awake and the timeout applies now)."""
    due = past_due(state, now)
    if not due or not all(asleep(state, pid, now) for pid in due):
        return None
    return min(quiet_end(state.quiet[pid], now) for pid in due)
