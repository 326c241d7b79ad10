"""Table talk over the in-memory doubles: no moto, no HTTP."""

from __future__ import annotations

import pytest

from app.services import Services
from tests.support.clock import Clock
from tests.support.services import memory_services


@pytest.fixture
def services(clock: Clock) -> Services:
    return memory_services(clock=clock)
