"""Use-case tests run once per Store adapter: DynamoDB (over moto) and in memory, as one contract."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest
from moto import mock_aws

from app.core.services import Services
from local_stack.resources import create_table
from tests.support.services import AllMemoryPorts, AllTablePorts, services_over

from ..api.conftest import (
    ENVIRONMENT,
    MOTO_CONFIG,
    TABLE,
    _empty_table,
    _forget_clients_and_settings,
    game_table_resource,
)
from .staging import Interleaved

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def _moto() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as env:
        for name, value in ENVIRONMENT.items():
            env.setenv(name, value)
        env.delenv("AWS_ENDPOINT_URL", raising=False)
        _forget_clients_and_settings()
        with mock_aws(config=MOTO_CONFIG):
            create_table(boto3.client("dynamodb"), TABLE, game_table_resource())
            yield
    _forget_clients_and_settings()


@pytest.fixture(params=["memory", "dynamodb"])
def store(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Every store port as one object: the in-memory doubles over one table, or the DynamoDB adapters."""
    for name, value in ENVIRONMENT.items():
        monkeypatch.setenv(name, value)
    _forget_clients_and_settings()
    if request.param == "memory":
        yield AllMemoryPorts()
    else:
        request.getfixturevalue("_moto")
        yield AllTablePorts(TABLE)
        _empty_table()
    _forget_clients_and_settings()


@pytest.fixture
def staged(store: Any) -> Interleaved:
    """The store, with a way to let a competing write land between a use case's read and its write."""
    return Interleaved(store)


@pytest.fixture
def services(staged: Interleaved) -> Services:
    return services_over(staged, clock=lambda: NOW)
