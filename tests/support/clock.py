"""A clock the test moves by hand, for use cases that judge time (token ages, rate-limit windows)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


class Clock:
    """`Services.clock`: the same instant on every call until the test moves it on."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        """Move on by `timedelta(**delta)` (seconds=..., hours=...); the new instant."""
        self.now += timedelta(**delta)
        return self.now
