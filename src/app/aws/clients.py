"""Boto3 clients, built on first use and reused by warm invocations.

Nothing is created at import. Boto3 itself honours AWS_ENDPOINT_URL, so the same code talks to AWS,
moto server or `sam local` without a branch here.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import boto3
from botocore.config import Config

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_s3 import S3Client
    from mypy_boto3_sns import SNSClient
    from mypy_boto3_sqs import SQSClient

# Standard mode retries throttling, 5xx and connection errors with jittered backoff, 3 attempts in all.
# Short timeouts: a DynamoDB call answers in milliseconds, and every second spent waiting on a dead
# connection is a second the use case cannot spend on its own retries inside the Lambda's 10 s.
_CONFIG = Config(
    retries={"mode": "standard", "max_attempts": 3},
    connect_timeout=1,
    read_timeout=2,
    tcp_keepalive=True,
)


@cache
def dynamodb() -> DynamoDBClient:
    return boto3.client("dynamodb", config=_CONFIG)


@cache
def s3() -> S3Client:
    # Virtual-host addressing breaks against a local endpoint such as moto server.
    return boto3.client(
        "s3", config=_CONFIG.merge(Config(s3={"addressing_style": "path"}, signature_version="s3v4"))
    )


@cache
def sns() -> SNSClient:
    return boto3.client("sns", config=_CONFIG)


@cache
def sqs() -> SQSClient:
    return boto3.client("sqs", config=_CONFIG)


_generation = 0


def generation() -> int:
    """How many times the clients were forgotten: what was built on older ones is stale too."""
    return _generation


def reset() -> None:
    """Forget cached clients (tests switch endpoints and credentials between cases)."""
    global _generation
    _generation += 1
    for factory in (dynamodb, s3, sns, sqs):
        factory.cache_clear()
