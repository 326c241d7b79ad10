"""Use-case tests run once per Store adapter: DynamoDB (over moto) and in memory, as one contract."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import boto3
import pytest
from moto import mock_aws

from app.aws.dynamodb.store import DynamoGameStore
from app.core.services import Services
from app.core.settings import get_settings
from app.decks.card_images import CardImages
from app.games.ports import Store
from app.notify.channels import Notifier
from local_stack.resources import create_table
from tests.fakes.memory_store import MemoryGameStore

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
def store(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    for name, value in ENVIRONMENT.items():
        monkeypatch.setenv(name, value)
    _forget_clients_and_settings()
    if request.param == "memory":
        yield MemoryGameStore()
    else:
        request.getfixturevalue("_moto")
        yield DynamoGameStore(TABLE)
        _empty_table()
    _forget_clients_and_settings()


@pytest.fixture
def staged(store: Store) -> Interleaved:
    """The store, with a way to let a competing write land between a use case's read and its write."""
    return Interleaved(store)


@pytest.fixture
def services(staged: Interleaved) -> Services:
    return Services(
        settings=get_settings(),
        store=staged,
        images=CardImages("", 3_600),
        notifier=Notifier(""),
        clock=lambda: NOW,
    )
