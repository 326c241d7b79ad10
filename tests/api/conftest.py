"""API tests: the real lambda_handler over moto, with the table built from template.yaml itself."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

import boto3
import pytest
from moto import mock_aws

from app import aws_clients, idempotency
from app.settings import get_settings
from dixit.local.resources import create_table
from dixit.local.template import load_template

from .client import Client

TABLE = "dixit-games-test"
BUCKET = "dixit-cards-test"
# Keep boto3's default session (and its parsed service models) across tests: building clients stays cheap.
MOTO_CONFIG: Any = {"core": {"reset_boto3_session": False}}


@cache
def game_table_resource() -> dict[str, Any]:
    resource: dict[str, Any] = load_template()["Resources"]["GameTable"]
    return resource


@pytest.fixture
def aws(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "TABLE_NAME": TABLE,
        "CARD_BUCKET": BUCKET,
        "POWERTOOLS_TRACE_DISABLED": "true",
        "POWERTOOLS_METRICS_NAMESPACE": "DixitTest",
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    get_settings.cache_clear()
    aws_clients.reset()
    idempotency.reset()
    with mock_aws(config=MOTO_CONFIG):
        create_table(boto3.client("dynamodb"), TABLE, game_table_resource())
        boto3.client("s3").create_bucket(Bucket=BUCKET)
        yield
    get_settings.cache_clear()
    aws_clients.reset()
    idempotency.reset()


@pytest.fixture
def players(aws: None) -> list[Client]:
    return [Client(f"Player {i}").register() for i in range(12)]


@pytest.fixture
def table(aws: None) -> Any:
    """The moto table itself, for looking at what the API stored (never for setting up a game)."""
    return boto3.resource("dynamodb").Table(TABLE)
