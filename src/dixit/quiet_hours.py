"""Quiet hours: when a player is asleep in their own time zone, and the deadline shift that follows.

A pure function of the seat's quiet hours (time zone and local window), the move timeout and the time:
no clock is read here. Local times go through `zoneinfo` (the `tzdata` package ships the database, so
this works on a Lambda image without one). The window is local wall time, so it follows DST: 22:00-08:00
is eight wall-clock hours that are nine or eleven real ones on the nights the clocks change.

The deadline shift: a move deadline that falls inside the owing player's quiet hours, or so soon after
they end that the player wakes to less than the waking window, moves to the end of those quiet hours plus
the waking window. So nobody times out asleep, and the morning message still leaves time to move.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from dixit.lean_dataclass import dataclass

MINUTES_PER_DAY = 24 * 60
# Quiet hours may not swallow the day: at least this much of it stays awake, so a waking window fits.
MIN_AWAKE_MINUTES = 8 * 60
MIN_WAKING_SECONDS = 3600
# The sweep runs every few minutes, so it applies a timeout a little after its deadline: a deadline this
# close before quiet hours would be applied inside them, so it moves too.
SWEEP_GRACE_SECONDS = 15 * 60
# How far several owing seats may push one deadline before the rule gives up on keeping all of them.
MAX_SHIFT_SECONDS = 2 * 24 * 3600
# Enough passes for any table whose quiet hours leave a common waking window; the loop never spins.
_MAX_PASSES = 32


class InvalidQuietHours(ValueError):
    """Quiet hours that cannot be kept: not HH:MM, empty, or leaving too little of the day awake."""


class UnknownTimeZone(ValueError):
    """Not an IANA time zone name of the tz database."""


@lru_cache(maxsize=1)
def _zone_names() -> frozenset[str]:
    return frozenset(available_timezones())


@lru_cache(maxsize=512)
def zone(name: str) -> ZoneInfo:
    """The tz database zone `name`; UnknownTimeZone for anything else (paths, abbreviations, typos)."""
    if name not in _zone_names():
        raise UnknownTimeZone(name)
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):  # listed but unreadable: as unknown as a typo
        raise UnknownTimeZone(name) from None


def _minutes(text: str) -> int:
    hours, sep, minutes = text.partition(":")
    if not sep or len(hours) != 2 or len(minutes) != 2 or not (hours + minutes).isdigit():
        raise InvalidQuietHours(f"{text!r} is not a time as HH:MM")
    if int(hours) > 23 or int(minutes) > 59:
        raise InvalidQuietHours(f"{text!r} is not a time of day")
    return int(hours) * 60 + int(minutes)


@dataclass(frozen=True, slots=True)
class QuietHours:
    """A local daily window [start, end) in minutes after midnight; start > end wraps past midnight."""

    start: int
    end: int

    @classmethod
    def parse(cls, start: str, end: str) -> QuietHours:
        """From "HH:MM" texts; InvalidQuietHours unless they make a window that leaves the day awake."""
        hours = cls(_minutes(start), _minutes(end))
        if hours.start == hours.end:
            raise InvalidQuietHours("quiet hours must start and end at different times")
        if MINUTES_PER_DAY - hours.length_minutes < MIN_AWAKE_MINUTES:
            raise InvalidQuietHours(f"quiet hours must leave at least {MIN_AWAKE_MINUTES // 60} hours awake")
        return hours

    @property
    def length_minutes(self) -> int:
        return (self.end - self.start) % MINUTES_PER_DAY

    @property
    def start_text(self) -> str:
        return f"{self.start // 60:02d}:{self.start % 60:02d}"

    @property
    def end_text(self) -> str:
        return f"{self.end // 60:02d}:{self.end % 60:02d}"

    def covers(self, minute_of_day: int) -> bool:
        return (minute_of_day - self.start) % MINUTES_PER_DAY < self.length_minutes


@dataclass(frozen=True, slots=True)
class SeatQuiet:
    """What the rules know of one seat's nights: its time zone and quiet hours (from its preferences)."""

    time_zone: str
    hours: QuietHours

    def to_list(self) -> list[str]:
        return [self.time_zone, self.hours.start_text, self.hours.end_text]

    @classmethod
    def from_list(cls, data: list[str]) -> SeatQuiet:
        time_zone, start, end = data
        return cls(time_zone, QuietHours(_minutes(start), _minutes(end)))


def _local(at: int, tz: ZoneInfo) -> datetime:
    return datetime.fromtimestamp(at, UTC).astimezone(tz)


def _instant(day: date, minute: int, tz: ZoneInfo, fold: int = 0) -> int:
    # fold=0: in a spring-forward gap the wall time lands after the jump, in a fall-back hour on its
    # first occurrence; fold=1 lands before the jump and on the second occurrence.
    wall = datetime.combine(day, time(minute // 60, minute % 60), tzinfo=tz).replace(fold=fold)
    return int(wall.timestamp())


def _first(lo: int, hi: int, reached: Callable[[int], bool]) -> int:
    """The first second in (lo, hi] at which `reached` holds, given it fails at lo and holds at hi."""
    while hi - lo > 1:
        middle = (lo + hi) // 2
        if reached(middle):
            hi = middle
        else:
            lo = middle
    return hi


def is_quiet(quiet: SeatQuiet, at: int) -> bool:
    """Whether the instant `at` (epoch seconds) falls inside the seat's quiet hours, in its time zone."""
    local = _local(at, zone(quiet.time_zone))
    return quiet.hours.covers(local.hour * 60 + local.minute)


def _next_local(quiet: SeatQuiet, at: int, minute: int, reached: Callable[[int], bool]) -> int:
    """The first instant after `at` whose wall time is `minute` (the next day's if today's is past).

    When the clocks skip that wall time, the first instant after the jump at which `reached` holds.
    """
    tz = zone(quiet.time_zone)
    today = _local(at, tz).date()
    for offset in range(-1, 3):
        day = today + timedelta(days=offset)
        candidate = _instant(day, minute, tz)
        if candidate > at:
            before_jump = max(at, _instant(day, minute, tz, fold=1))
            if before_jump < candidate and not reached(before_jump):
                return _first(before_jump, candidate, reached)
            return candidate
    raise AssertionError("a wall time recurs within three days")  # pragma: no cover


def quiet_end(quiet: SeatQuiet, at: int) -> int:
    """When the quiet stretch holding `at` ends (`at` itself when it is not quiet)."""
    end = at
    for _ in range(_MAX_PASSES):
        if not is_quiet(quiet, end):
            return end
        end = _next_local(quiet, end, quiet.hours.end, lambda t: not is_quiet(quiet, t))
    return end


def next_quiet_start(quiet: SeatQuiet, at: int) -> int:
    """The first quiet instant at or after `at`."""
    if is_quiet(quiet, at):
        return at
    start = _next_local(quiet, at, quiet.hours.start, lambda t: is_quiet(quiet, t))
    # Past the end already (a window shorter than the clocks' jump): that night had no quiet minute.
    return start if is_quiet(quiet, start) else next_quiet_start(quiet, start + 60)


def waking_window(quiet: SeatQuiet, move_timeout_seconds: int) -> int:
    """Awake time owed before a deadline: a tenth of the move timeout, at least an hour, and at most
    half of the player's waking day (so it always fits before their next quiet hours)."""
    awake = (MINUTES_PER_DAY - quiet.hours.length_minutes) * 60
    return max(MIN_WAKING_SECONDS, min(move_timeout_seconds // 10, awake // 2))


def _known(name: str) -> bool:
    try:
        zone(name)
    except UnknownTimeZone:
        return False
    return True


def _shift_once(quiet: SeatQuiet, deadline: int, window: int) -> int:
    """The deadline moved past quiet hours it falls in or follows too closely (itself when fine)."""
    first_quiet = next_quiet_start(quiet, deadline - window)
    if first_quiet > deadline + SWEEP_GRACE_SECONDS:
        return deadline
    return quiet_end(quiet, first_quiet) + window


def _settle(deadline: int, windows: list[tuple[SeatQuiet, int]], limit: int) -> int | None:
    """Shift for each seat in turn until none moves it; None if that would go past `limit`."""
    for _ in range(_MAX_PASSES):
        moved = deadline
        for seat, window in windows:
            moved = _shift_once(seat, moved, window)
        if moved == deadline:
            return deadline
        if moved > limit:
            return None
        deadline = moved
    return None


def shift_deadline(deadline: int, quiets: Iterable[SeatQuiet], move_timeout_seconds: int) -> int:
    """`deadline` moved until no owing seat is asleep at it (or within the sweep's grace after it), or
    woke less than its waking window before it.

    With several owing seats the shift repeats until every one of them is content, within
    MAX_SHIFT_SECONDS. Quiet hours that leave the table no common waking window cannot all be kept: then
    the deadline is the first moment nobody is asleep, and failing that (their nights cover the whole
    day) the latest of the seats' own shifted deadlines: later than the original, never by more than
    one night and a waking window.
    """
    # A zone this runtime's tz database lacks (stored by a newer one) cannot be kept: never fail a game.
    seats = [seat for seat in quiets if _known(seat.time_zone)]
    if not seats:
        return deadline
    limit = deadline + MAX_SHIFT_SECONDS
    windows = [(seat, waking_window(seat, move_timeout_seconds)) for seat in seats]
    for tried in (windows, [(seat, 0) for seat in seats]):
        settled = _settle(deadline, tried, limit)
        if settled is not None:
            return settled
    return max(_shift_once(seat, deadline, window) for seat, window in windows)
