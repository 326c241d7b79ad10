"""Use-case tests run once per Store adapter: DynamoDB (over moto) and in memory, as one contract.

tests/app/conftest.py hands these fixtures to every test under tests/app. The feature folders that test
their use cases over the in-memory doubles alone (games, players, webhooks, feed, notify, signin) override
`services` in their own conftest; a module there that runs on every store imports `services` from here,
which takes precedence over its folder's.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from app.core.deadline import Deadline
from app.services import Services
from tests.support.aws import (
    TABLE,
    empty_table,
    forget_clients_and_settings,
    moto_game_table,
    set_environment,
)
from tests.support.clock import Clock
from tests.support.services import AllMemoryPorts, AllTablePorts, services_over

from .staging import Interleaved

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def _moto() -> Iterator[None]:
    with moto_game_table(bucket=False):
        yield


@pytest.fixture(params=["memory", "dynamodb"])
def store(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Every store port as one object: the in-memory doubles over one table, or the DynamoDB adapters."""
    set_environment(monkeypatch)
    if request.param == "memory":
        yield AllMemoryPorts()
    else:
        request.getfixturevalue("_moto")
        yield AllTablePorts(TABLE)
        empty_table()
    forget_clients_and_settings()


@pytest.fixture
def staged(store: Any) -> Interleaved:
    """The store, with a way to let a competing write land between a use case's read and its write."""
    return Interleaved(store)


@pytest.fixture
def services(staged: Interleaved) -> Services:
    # A whole test is many requests: one request's budget (8 s) from the fixture on is too short on a busy
    # machine. Tests of the budget set their own deadline.
    return services_over(staged, clock=lambda: NOW, deadline=Deadline.after(300))


@pytest.fixture
def clock() -> Clock:
    """The use cases' clock, at NOW until the test moves it."""
    return Clock(NOW)
