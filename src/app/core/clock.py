"""The time a use case works in: the wall clock, and the request's "now" as stores and rules want it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Protocol


def utc_now() -> datetime:
    return datetime.now(UTC)


class Clock(Protocol):
    """The request's "now" (app.services.Services is one: its clock may be a simulation's or the sweep's)."""

    def now_iso(self) -> str:
        """To the millisecond: lobbies are listed newest first by this stamp."""
        ...

    def now_epoch(self) -> int:
        """The "now" the rules core is given (epoch seconds)."""
        ...


class WallClock(Protocol):
    """The clock itself, for a use case that works with datetimes (a feed's expiry, a delivery's stamp)."""

    # A property: a callable attribute would read as a method, which a dataclass field is not.
    @property
    def clock(self) -> Callable[[], datetime]: ...
