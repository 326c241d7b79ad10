"""Signing in by email over the in-memory doubles: no moto, no HTTP."""

from __future__ import annotations

import pytest

from app.core.settings import AppSettings
from app.services import Services
from tests.support.clock import Clock
from tests.support.services import memory_services


@pytest.fixture
def services(clock: Clock) -> Services:
    settings = AppSettings(web_base_url="https://dixit.example", sign_in_floor_seconds=0)
    return memory_services(clock=clock, settings=settings)
