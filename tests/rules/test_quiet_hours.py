"""Quiet hours in the rules core: when a seat is asleep, and deadlines that never fall while it is."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from zoneinfo import available_timezones

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dixit import engine
from dixit.deadlines import Due, DueKind, schedule
from dixit.errors import IllegalMoveError
from dixit.moves import Join, Start, Timeout
from dixit.quiet_hours import (
    MIN_AWAKE_MINUTES,
    MINUTES_PER_DAY,
    SWEEP_GRACE_SECONDS,
    InvalidQuietHours,
    QuietHours,
    SeatQuiet,
    UnknownTimeZone,
    is_quiet,
    next_quiet_start,
    quiet_end,
    shift_deadline,
    waking_window,
    zone,
)
from dixit.seat_quiet import with_seat_quiet
from dixit.state import GameState
from dixit.views import view_for

from .helpers import HOST, NOW, act, lobby, pid, seated_game, storyteller

NIGHTS = QuietHours.parse("22:00", "08:00")
PARIS = SeatQuiet("Europe/Paris", NIGHTS)
DAY = 24 * 3600


def at(text: str, tz: str = "UTC") -> int:
    """Epoch seconds of a local wall time such as "2026-06-10 03:00"."""
    return int(datetime.fromisoformat(text).replace(tzinfo=zone(tz)).timestamp())


def local(epoch: int, tz: str = "Europe/Paris") -> str:
    return datetime.fromtimestamp(epoch, UTC).astimezone(zone(tz)).strftime("%Y-%m-%d %H:%M")


# Parsing


@pytest.mark.parametrize(
    "text", ["8:00", "24:00", "12:60", "12-00", "ab:cd", "", "12:00:00", "\uff11\uff12:00"]
)
def test_a_quiet_hour_that_is_not_hh_mm_is_refused(text: str) -> None:
    with pytest.raises(InvalidQuietHours):
        QuietHours.parse(text, "08:00")


def test_quiet_hours_that_start_when_they_end_are_refused() -> None:
    with pytest.raises(InvalidQuietHours, match="different"):
        QuietHours.parse("08:00", "08:00")


def test_quiet_hours_that_leave_less_than_eight_waking_hours_are_refused() -> None:
    with pytest.raises(InvalidQuietHours, match="awake"):
        QuietHours.parse("20:00", "12:01")
    assert QuietHours.parse("20:00", "12:00").length_minutes == MINUTES_PER_DAY - MIN_AWAKE_MINUTES


def test_quiet_hours_may_wrap_past_midnight_or_stay_within_a_day() -> None:
    assert NIGHTS.covers(23 * 60)
    assert NIGHTS.covers(0)
    assert NIGHTS.covers(7 * 60 + 59)
    assert not NIGHTS.covers(8 * 60)
    assert not NIGHTS.covers(21 * 60 + 59)
    nap = QuietHours.parse("13:00", "14:30")
    assert nap.covers(13 * 60)
    assert not nap.covers(14 * 60 + 30)
    assert not nap.covers(0)


@pytest.mark.parametrize("name", ["Mars/Olympus", "europe/paris", "../etc/passwd", "", "CEST"])
def test_a_name_outside_the_tz_database_is_no_time_zone(name: str) -> None:
    with pytest.raises(UnknownTimeZone):
        zone(name)


def test_zoneinfo_finds_every_zone_without_a_system_tz_database() -> None:
    # Lambda images have shipped without /usr/share/zoneinfo: the tzdata package must be enough.
    script = (
        "import zoneinfo; zoneinfo.reset_tzpath(to=[]);"
        "from dixit.quiet_hours import zone, _zone_names;"
        "assert 'Europe/Paris' in _zone_names() and 'Australia/Lord_Howe' in _zone_names();"
        "print(zone('Europe/Paris').utcoffset(__import__('datetime').datetime(2026, 7, 1)))"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "2:00:00"


# Instants


def test_a_player_is_quiet_by_their_own_clock_not_utc() -> None:
    assert is_quiet(PARIS, at("2026-06-10 23:30", "Europe/Paris"))
    assert not is_quiet(PARIS, at("2026-06-10 21:30", "Europe/Paris"))
    assert not is_quiet(SeatQuiet("America/New_York", NIGHTS), at("2026-06-10 23:30", "Europe/Paris"))


def test_quiet_hours_end_at_the_local_end_time_across_a_dst_change() -> None:
    # The night of 28-29 March 2026 loses an hour in Paris: 08:00 is still 08:00 on the wall.
    assert local(quiet_end(PARIS, at("2026-03-28 23:00", "Europe/Paris"))) == "2026-03-29 08:00"
    assert local(quiet_end(PARIS, at("2026-10-25 02:30", "Europe/Paris"))) == "2026-10-25 08:00"
    awake = at("2026-06-10 12:00", "Europe/Paris")
    assert quiet_end(PARIS, awake) == awake
    assert local(next_quiet_start(PARIS, awake)) == "2026-06-10 22:00"


def test_quiet_hours_starting_in_a_skipped_hour_begin_at_the_jump() -> None:
    # 02:30 never happens in Paris on 29 March 2026: the clock goes from 02:00 to 03:00.
    quiet = SeatQuiet("Europe/Paris", QuietHours.parse("02:30", "09:00"))
    start = next_quiet_start(quiet, at("2026-03-29 01:00", "Europe/Paris"))
    assert is_quiet(quiet, start)
    assert not is_quiet(quiet, start - 60)
    assert local(start) == "2026-03-29 03:00"


def test_the_waking_window_is_a_tenth_of_the_timeout_at_least_an_hour_and_fits_the_day() -> None:
    assert waking_window(PARIS, 48 * 3600) == 48 * 360
    assert waking_window(PARIS, 3 * 3600) == 3600
    assert waking_window(PARIS, 336 * 3600) == 7 * 3600  # half of the 14 waking hours


# The deadline shift


def test_a_deadline_at_three_in_the_morning_moves_to_the_end_of_the_night_plus_the_waking_window() -> None:
    deadline = at("2026-06-11 03:00", "Europe/Paris")
    assert local(shift_deadline(deadline, [PARIS], 48 * 3600)) == "2026-06-11 12:48"
    assert local(shift_deadline(deadline, [PARIS], 5 * 3600)) == "2026-06-11 09:00"


def test_a_deadline_just_after_waking_moves_and_one_well_after_stays() -> None:
    assert local(shift_deadline(at("2026-06-11 08:30", "Europe/Paris"), [PARIS], 5 * 3600)) == (
        "2026-06-11 09:00"
    )
    noon = at("2026-06-11 12:00", "Europe/Paris")
    assert shift_deadline(noon, [PARIS], 5 * 3600) == noon


def test_a_deadline_minutes_before_the_night_moves_past_it_since_the_sweep_would_act_inside() -> None:
    deadline = at("2026-06-10 21:50", "Europe/Paris")
    assert local(shift_deadline(deadline, [PARIS], 5 * 3600)) == "2026-06-11 09:00"


def test_without_quiet_hours_or_with_an_unknown_zone_the_deadline_stays() -> None:
    deadline = at("2026-06-11 03:00", "Europe/Paris")
    assert shift_deadline(deadline, [], 3600) == deadline
    assert shift_deadline(deadline, [SeatQuiet("Gone/Zone", NIGHTS)], 3600) == deadline


def test_seats_whose_nights_cover_the_day_between_them_get_a_deadline_within_a_night() -> None:
    early = SeatQuiet("UTC", QuietHours.parse("00:00", "16:00"))
    late = SeatQuiet("UTC", QuietHours.parse("16:00", "08:00"))
    deadline = at("2026-06-11 03:00")
    shifted = shift_deadline(deadline, [early, late], 48 * 3600)
    assert deadline < shifted <= deadline + DAY


def test_seats_with_only_a_short_common_waking_hour_get_it_without_the_waking_window() -> None:
    one = SeatQuiet("UTC", QuietHours.parse("20:00", "10:00"))
    other = SeatQuiet("UTC", QuietHours.parse("12:00", "04:00"))  # both awake 10:00-12:00 only
    shifted = shift_deadline(at("2026-06-11 03:00"), [one, other], 48 * 3600)
    assert local(shifted, "UTC") == "2026-06-11 10:00"


def test_two_owing_seats_get_a_deadline_neither_sleeps_through() -> None:
    tokyo = SeatQuiet("Asia/Tokyo", QuietHours.parse("23:00", "07:00"))
    shifted = shift_deadline(at("2026-06-11 03:00", "Europe/Paris"), [PARIS, tokyo], 5 * 3600)
    for seat in (PARIS, tokyo):
        assert not is_quiet(seat, shifted)
        assert next_quiet_start(seat, shifted - waking_window(seat, 5 * 3600)) > shifted


zones = st.sampled_from(sorted(available_timezones() - {"Factory", "localtime"}))
windows = (
    st.tuples(st.integers(0, MINUTES_PER_DAY - 1), st.integers(1, MINUTES_PER_DAY - MIN_AWAKE_MINUTES))
    .map(lambda pair: QuietHours(pair[0], (pair[0] + pair[1]) % MINUTES_PER_DAY))
)  # fmt: skip
instants = st.integers(at("2000-01-01 00:00"), at("2040-01-01 00:00"))
timeouts = st.integers(1, 336).map(lambda hours: hours * 3600)


@settings(max_examples=300, deadline=None)
@given(zones, windows, instants, timeouts)
def test_a_shifted_deadline_is_never_quiet_and_leaves_the_waking_window_after_the_night(
    time_zone: str, hours: QuietHours, deadline: int, timeout: int
) -> None:
    seat = SeatQuiet(time_zone, hours)
    shifted = shift_deadline(deadline, [seat], timeout)
    assert shifted >= deadline
    assert not is_quiet(seat, shifted)
    # No quiet minute from a waking window before the deadline to the sweep's grace after it.
    assert next_quiet_start(seat, shifted - waking_window(seat, timeout)) > shifted + SWEEP_GRACE_SECONDS
    # And it moves no further than one night and one window away.
    assert shifted <= deadline + 2 * DAY


@settings(max_examples=200, deadline=None)
@given(zones, windows, instants, timeouts)
def test_a_shifted_deadline_stays_where_it_is_when_shifted_again(
    time_zone: str, hours: QuietHours, deadline: int, timeout: int
) -> None:
    seat = SeatQuiet(time_zone, hours)
    shifted = shift_deadline(deadline, [seat], timeout)
    assert shift_deadline(shifted, [seat], timeout) == shifted


def _common_waking_half_hour(quiets: list[SeatQuiet], start: int, end: int) -> bool:
    """Whether every seat is awake through some half hour between `start` and `end` (5-minute steps)."""
    steps = range(start, end, 300)
    awake = [all(not is_quiet(seat, t) for seat in quiets) for t in steps]
    return any(all(awake[i : i + 7]) for i in range(len(awake) - 7))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(zones, windows), min_size=2, max_size=3), instants, timeouts)
def test_with_several_owing_seats_nobody_sleeps_at_the_deadline_if_they_share_any_waking_time(
    seats: list[tuple[str, QuietHours]], deadline: int, timeout: int
) -> None:
    quiets = [SeatQuiet(tz, hours) for tz, hours in seats]
    shifted = shift_deadline(deadline, quiets, timeout)
    assert deadline <= shifted <= deadline + 2 * DAY  # however the nights of the table fall
    if _common_waking_half_hour(quiets, deadline, deadline + 2 * DAY - 3600):
        assert not any(is_quiet(seat, shifted) for seat in quiets)


@settings(max_examples=200, deadline=None)
@given(zones, windows, instants)
def test_quiet_end_is_the_first_waking_minute_after_a_quiet_instant(
    time_zone: str, hours: QuietHours, instant: int
) -> None:
    seat = SeatQuiet(time_zone, hours)
    end = quiet_end(seat, instant)
    assert end >= instant
    assert not is_quiet(seat, end)
    if end > instant:
        assert is_quiet(seat, end - 60) or is_quiet(seat, instant)


# In the game state


def paris_game(players: int = 3) -> GameState:
    state = lobby(players)
    state = act(state, Join(pid(players), "Night owl", quiet=PARIS))
    return state


def test_a_seat_keeps_the_quiet_hours_it_joined_with_through_json() -> None:
    state = paris_game()
    assert state.quiet == {pid(3): PARIS}
    back = GameState.from_json(state.to_json())
    assert back == state
    assert back.quiet == {pid(3): PARIS}
    assert "quiet" not in lobby(3).to_dict()  # older items and quiet-less games read the same


def test_a_host_keeps_their_quiet_hours_from_the_start() -> None:
    state = engine.new_game("g2", host_id=HOST, host_name="Host", settings=lobby(3).settings, seed=1,
                            host_quiet=PARIS)  # fmt: skip
    assert state.quiet == {HOST: PARIS}


def test_the_owing_seats_deadline_moves_out_of_its_night_and_the_view_and_schedule_say_so() -> None:
    night = at("2030-01-15 01:00", "Europe/Paris")
    state = act(paris_game(), Start(HOST), now=night - 48 * 3600)  # due at 01:00 Paris, asleep
    teller = storyteller(state)
    state = with_seat_quiet(state, teller, PARIS) or state
    deadline = state.deadline()
    assert deadline is not None
    assert local(deadline) == "2030-01-15 12:48"
    assert schedule(state)[-1] == Due(deadline, DueKind.TIMEOUT, deadline, (teller,))
    view = view_for(state, teller)
    assert view.you is not None
    assert view.you.owes is not None
    assert view.you.owes.deadline == deadline


def test_no_timeout_is_accepted_while_the_owing_seat_sleeps() -> None:
    night = at("2030-01-15 01:00", "Europe/Paris")
    state = act(paris_game(), Start(HOST), now=night - 48 * 3600)
    state = with_seat_quiet(state, storyteller(state), PARIS) or state
    with pytest.raises(IllegalMoveError) as refused:
        engine.apply(state, Timeout(), now=night + 3600)
    assert refused.value.code == "not_due"
    assert engine.apply(state, Timeout(), now=at("2030-01-15 12:48", "Europe/Paris")).timed_out


def test_refreshing_a_seats_quiet_hours_moves_the_version_only_when_they_change() -> None:
    state = paris_game()
    assert with_seat_quiet(state, pid(3), PARIS) is None
    assert with_seat_quiet(state, "stranger", None) is None
    cleared = with_seat_quiet(state, pid(3), None)
    assert cleared is not None
    assert cleared.quiet == {}
    assert cleared.version == state.version + 1
    assert state.quiet == {pid(3): PARIS}  # the original is untouched


def test_a_seated_game_without_quiet_hours_keeps_its_plain_deadline() -> None:
    state = seated_game(3)
    assert state.round is not None
    assert state.deadline() == NOW + state.settings.move_timeout_seconds
