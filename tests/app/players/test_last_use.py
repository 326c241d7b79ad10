"""app.players.last_use: a use is written at most once per granularity, and never fails a request."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app.core.errors import StoreUnavailable
from app.players.last_use import note_use

NOW = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)


class _Now:
    clock = staticmethod(lambda: NOW)

    def now_iso(self) -> str:
        return NOW.isoformat(timespec="milliseconds")

    def now_epoch(self) -> int:
        return int(NOW.timestamp())


def _touches(last_used_at: str | None) -> list[dict[str, str]]:
    touched: list[dict[str, str]] = []
    note_use(_Now(), last_used_at, HOUR, lambda **when: touched.append(when), "a session")
    return touched


def test_a_use_within_the_granularity_writes_nothing() -> None:
    assert _touches((NOW - timedelta(minutes=59)).isoformat()) == []


def test_an_older_or_unrecorded_use_is_written_conditionally_on_still_being_older() -> None:
    expected = {"used_at": _Now().now_iso(), "older_than": (NOW - HOUR).isoformat(timespec="milliseconds")}
    assert _touches((NOW - timedelta(minutes=61)).isoformat()) == [expected]
    assert _touches(None) == [expected]


def test_a_store_that_cannot_take_the_write_costs_the_request_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def unavailable(**when: Any) -> None:
        raise StoreUnavailable("throttled")

    note_use(_Now(), None, HOUR, unavailable, "a personal token")
    assert "could not record a personal token's last use" in caplog.text
