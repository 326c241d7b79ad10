"""Nobody timed out asleep: a timeout applied late, inside the owing player's quiet hours, waits for
them to wake (dixit.asleep), whenever the sweep comes."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dixit import engine
from dixit.asleep import asleep, timing_out, woken_by
from dixit.deadlines import DueKind, due_now, next_due
from dixit.departures import depart
from dixit.errors import IllegalMoveError
from dixit.moves import GiveClue, Start, Timeout
from dixit.quiet_hours import QuietHours, SeatQuiet, is_quiet, quiet_end, zone
from dixit.seat_quiet import with_seat_quiet
from dixit.state import GameState, Phase

from .helpers import HOST, act, lobby, storyteller
from .test_quiet_hours import instants, windows, zones

NEW_YORK = SeatQuiet("America/New_York", QuietHours.parse("22:00", "08:00"))
DAY = 24 * 3600


def at(text: str, tz: str = "America/New_York") -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=zone(tz)).timestamp())


def submitting(start: int, players: int = 4, policy: str = "autoplay") -> GameState:
    """A game whose first round has taken its clue at `start`: every other seat owes a card."""
    state = act(lobby(players, policy=policy), Start(HOST), now=start)
    teller = storyteller(state)
    return act(state, GiveClue(teller, state.hands[teller][0], "a long night"), now=start)


def sleeping_at_the_deadline(quiets: dict[str, SeatQuiet], state: GameState) -> GameState:
    for player_id, quiet in quiets.items():
        state = with_seat_quiet(state, player_id, quiet) or state
    return state


def test_a_sweep_late_into_the_night_leaves_the_sleeper_be_until_the_night_ends() -> None:
    # Seen in the 50-game season (seed 7): a deadline at 21:37, the sweep at 22:04, asleep since 22:00.
    state = submitting(at("2027-01-05 21:37") - 48 * 3600)
    sleeper, *awake = [p for p in state.awaited()]
    state = with_seat_quiet(state, sleeper, NEW_YORK) or state
    deadline = state.deadline_of(sleeper)
    assert datetime.fromtimestamp(deadline, zone(NEW_YORK.time_zone)).strftime("%H:%M") == "21:37"
    late = at("2027-01-05 22:04")

    assert timing_out(state, late) == tuple(awake)  # the others are moved on; the sleeper keeps the move
    applied = engine.apply(state, Timeout(), now=late)
    assert applied.timed_out == tuple(awake)
    assert applied.state.awaited() == (sleeper,)
    # Now only the sleeper is past due: the timeout waits for 08:00, and the schedule says so.
    morning = at("2027-01-06 08:00")
    assert woken_by(applied.state, late + 60) == morning
    with pytest.raises(IllegalMoveError) as refused:
        engine.apply(applied.state, Timeout(), now=late + 60)
    assert refused.value.code == "not_due"
    assert (due := due_now(applied.state, late + 60)) is not None
    assert due.kind is not DueKind.TIMEOUT
    upcoming = next_due(applied.state, after=late + 60)
    assert upcoming is not None
    assert (upcoming.kind, upcoming.at, upcoming.deadline) == (DueKind.TIMEOUT, morning, deadline)
    assert engine.apply(applied.state, Timeout(), now=morning).timed_out == (sleeper,)


def test_a_deleted_accounts_seat_never_sleeps() -> None:
    state = submitting(at("2027-01-05 21:37") - 48 * 3600, policy="wait")
    gone = state.awaited()[0]
    state = with_seat_quiet(state, gone, NEW_YORK) or state
    depart(state, gone)
    late = at("2027-01-05 23:00")
    assert not asleep(state, gone, late)
    assert engine.apply(state, Timeout(), now=late).timed_out == (gone,)


def test_a_zone_this_runtime_does_not_know_never_holds_a_timeout_back() -> None:
    state = submitting(at("2027-01-05 21:37") - 48 * 3600)
    owing = state.awaited()[0]
    state.quiet[owing] = SeatQuiet("Mars/Olympus_Mons", NEW_YORK.hours)
    assert not asleep(state, owing, at("2027-01-05 23:00"))


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.one_of(st.none(), st.tuples(zones, windows)), min_size=3, max_size=3),
    instants,
    st.integers(0, 3 * DAY),
    st.sampled_from(["skip", "autoplay"]),
)
def test_no_timeout_is_ever_applied_to_a_player_inside_their_quiet_hours(
    nights: list[tuple[str, QuietHours] | None], start: int, lateness: int, policy: str
) -> None:
    """Whenever the sweep comes, a timeout moves on only those awake then; those asleep keep their move
    until their night ends, and the timeout is due the moment the first of them wakes."""
    state = submitting(start, policy=policy)
    seats = dict(zip(state.awaited(), nights, strict=True))
    quiets = {pid: SeatQuiet(*night) for pid, night in seats.items() if night is not None}
    state = sleeping_at_the_deadline(quiets, state)
    deadline = state.deadline()
    assert deadline is not None
    now = deadline + lateness
    sleeping = {pid for pid, quiet in quiets.items() if is_quiet(quiet, now)}
    past_due = {pid for pid in state.awaited() if state.deadline_of(pid) <= now}

    woken = woken_by(state, now)
    if past_due - sleeping:
        applied = engine.apply(state, Timeout(), now=now)
        assert set(applied.timed_out) == past_due - sleeping
        if applied.state.phase is Phase.SUBMITTING:
            assert sleeping & past_due <= set(applied.state.awaited())
        assert woken is None
        return
    with pytest.raises(IllegalMoveError):
        engine.apply(state, Timeout(), now=now)
    due = due_now(state, now)
    assert due is None or due.kind is not DueKind.TIMEOUT
    if not past_due:
        assert woken is None
        return
    # Everyone past due sleeps: the timeout is due when the first of them wakes, and applies then.
    assert woken == min(quiet_end(quiets[pid], now) for pid in past_due)
    upcoming = next_due(state, after=now)
    assert upcoming is not None
    assert (upcoming.kind, upcoming.at) == (DueKind.TIMEOUT, woken)
    timed_out = engine.apply(state, Timeout(), now=woken).timed_out
    assert timed_out
    assert not any(is_quiet(quiets[pid], woken) for pid in timed_out if pid in quiets)
