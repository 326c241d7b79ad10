"""API tests: the real lambda_handler over moto, with the table built from template.yaml itself."""

from __future__ import annotations

from collections.abc import Iterator

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
    with mock_aws():
        template = load_template()
        create_table(boto3.client("dynamodb"), TABLE, template["Resources"]["GameTable"])
        boto3.client("s3").create_bucket(Bucket=BUCKET)
        yield
    get_settings.cache_clear()
    aws_clients.reset()
    idempotency.reset()


@pytest.fixture
def players(aws: None) -> list[Client]:
    return [Client(f"Player {i}").register() for i in range(12)]
