"""API tests: the real lambda_handler over moto, with the table built from template.yaml itself."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

import boto3
import pytest
from moto import mock_aws

from app.aws import clients as aws_clients
from app.core.settings import get_settings
from local_stack.resources import create_table
from local_stack.template import load_template

from .client import Client
from .stream import StreamFeed

TABLE = "dixit-games-test"
BUCKET = "dixit-cards-test"
# Keep boto3's default session (and its parsed service models) across tests: building clients stays cheap.
MOTO_CONFIG: Any = {"core": {"reset_boto3_session": False}}


@cache
def game_table_resource() -> dict[str, Any]:
    resource: dict[str, Any] = load_template()["Resources"]["GameTable"]
    return resource


ENVIRONMENT = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
    "TABLE_NAME": TABLE,
    "CARD_BUCKET": BUCKET,
    "POWERTOOLS_TRACE_DISABLED": "true",
    "POWERTOOLS_METRICS_NAMESPACE": "DixitTest",
}


def _forget_clients_and_settings() -> None:
    get_settings.cache_clear()
    aws_clients.reset()


@pytest.fixture(scope="module")
def _moto_table() -> Iterator[None]:
    """moto with the table and bucket, built once per test module (table creation is the costly part).

    Module scope, not session: the mock and its environment end with the module, so test suites that
    share an xdist worker never run inside them.
    """
    with pytest.MonkeyPatch.context() as env:
        for name, value in ENVIRONMENT.items():
            env.setenv(name, value)
        env.delenv("AWS_ENDPOINT_URL", raising=False)
        _forget_clients_and_settings()
        with mock_aws(config=MOTO_CONFIG):
            create_table(boto3.client("dynamodb"), TABLE, game_table_resource())
            boto3.client("s3").create_bucket(Bucket=BUCKET)
            yield
    _forget_clients_and_settings()


def _empty_table() -> None:
    table = boto3.resource("dynamodb").Table(TABLE)
    with table.batch_writer() as batch:
        for page in (
            boto3.client("dynamodb")
            .get_paginator("scan")
            .paginate(TableName=TABLE, ProjectionExpression="pk, sk")
        ):
            for item in page["Items"]:
                batch.delete_item(Key={"pk": item["pk"]["S"], "sk": item["sk"]["S"]})


@pytest.fixture
def aws(_moto_table: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """An empty game table and bucket in moto, and the environment the API Lambda reads."""
    for name, value in ENVIRONMENT.items():
        monkeypatch.setenv(name, value)  # a test may change one (CARD_BUCKET...) for itself
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    _forget_clients_and_settings()
    yield
    _empty_table()
    _forget_clients_and_settings()


@pytest.fixture
def players(aws: None) -> list[Client]:
    return [Client(f"Player {i}").register() for i in range(12)]


@pytest.fixture
def table(aws: None) -> Any:
    """The moto table itself, for looking at what the API stored (never for setting up a game)."""
    return boto3.resource("dynamodb").Table(TABLE)


@pytest.fixture
def feed(aws: None) -> StreamFeed:
    """The table's stream from now on, for handing to GameStreamFunction (which writes the inbox entries)."""
    return StreamFeed(TABLE)
