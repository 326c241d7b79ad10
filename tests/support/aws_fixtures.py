"""Fixtures of the moto-backed tests, shared by the conftests of tests/api, tests/app/webhooks and
tests/local_stack.

A conftest imports the ones its directory uses (`from tests.support.aws_fixtures import aws`); test
modules never import fixtures, nor anything from a conftest.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.api.client import Client

from .aws import empty_table, forget_clients_and_settings, moto_game_table, set_environment


@pytest.fixture(scope="module")
def _moto_table() -> Iterator[None]:
    """moto with the table and bucket, built once per test module (table creation is the costly part).

    Module scope, not session: the mock and its environment end with the module, so test suites that
    share an xdist worker never run inside them.
    """
    with moto_game_table():
        yield


@pytest.fixture
def aws(_moto_table: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """An empty game table and bucket in moto, and the environment the API Lambda reads."""
    set_environment(monkeypatch)  # a test may change one (CARD_BUCKET...) for itself
    yield
    empty_table()
    forget_clients_and_settings()


@pytest.fixture
def players(aws: None) -> list[Client]:
    """Twelve registered players, each an API client holding its token."""
    return [Client(f"Player {i}").register() for i in range(12)]
