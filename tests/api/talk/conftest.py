"""The table-talk tests' clock: a fixed minute, so the per-minute window never rolls over mid-test."""

from __future__ import annotations

import pytest

from app.core import clock as wall_clock
from tests.support.clock import Clock

from .talking import T0


@pytest.fixture
def clock(aws: None, monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock(T0)
    monkeypatch.setattr(wall_clock, "utc_now", fake)
    return fake
