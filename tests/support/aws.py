"""The test environment the moto-backed tests share: names, variables, the game table of template.yaml."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

import boto3
import pytest
from moto import mock_aws

from app.aws import clients as aws_clients
from app.core.settings import get_settings
from local_stack.resources import create_table
from local_stack.template import load_template

TABLE = "dixit-games-test"
BUCKET = "dixit-cards-test"
# Keep boto3's default session (and its parsed service models) across tests: building clients stays cheap.
MOTO_CONFIG: Any = {"core": {"reset_boto3_session": False}}

ENVIRONMENT = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
    "TABLE_NAME": TABLE,
    "CARD_BUCKET": BUCKET,
    "POWERTOOLS_TRACE_DISABLED": "true",
    "POWERTOOLS_METRICS_NAMESPACE": "DixitTest",
}


@cache
def game_table_resource() -> dict[str, Any]:
    """template.yaml's GameTable resource: the table the tests create is the one the stack deploys."""
    resource: dict[str, Any] = load_template()["Resources"]["GameTable"]
    return resource


def forget_clients_and_settings() -> None:
    """Drop the cached settings and boto3 clients (bootstrap rebuilds its adapters after a reset), so the
    next use reads the environment, and talks to the mock, as they are now."""
    get_settings.cache_clear()
    aws_clients.reset()


def set_environment(env: pytest.MonkeyPatch) -> None:
    """ENVIRONMENT in the process environment, and no endpoint override (moto intercepts in-process)."""
    for name, value in ENVIRONMENT.items():
        env.setenv(name, value)
    env.delenv("AWS_ENDPOINT_URL", raising=False)
    forget_clients_and_settings()
    # The outbox's queues are in memory, delivered at once: what a test reads was sent by the outbox.
    from tests.support.outbox import queue_in_process

    queue_in_process(env)


@contextmanager
def moto_game_table(*, bucket: bool = True) -> Iterator[None]:
    """moto with the game table (and the card bucket), in ENVIRONMENT, for as long as the block runs."""
    with pytest.MonkeyPatch.context() as env:
        set_environment(env)
        with mock_aws(config=MOTO_CONFIG):
            create_table(boto3.client("dynamodb"), TABLE, game_table_resource())
            if bucket:
                boto3.client("s3").create_bucket(Bucket=BUCKET)
            yield
    forget_clients_and_settings()


def empty_table() -> None:
    """Delete every item of the moto game table (cheaper than building the table again)."""
    table = boto3.resource("dynamodb").Table(TABLE)
    with table.batch_writer() as batch:
        for page in (
            boto3.client("dynamodb")
            .get_paginator("scan")
            .paginate(TableName=TABLE, ProjectionExpression="pk, sk")
        ):
            for item in page["Items"]:
                batch.delete_item(Key={"pk": item["pk"]["S"], "sk": item["sk"]["S"]})
