"""Boto3 clients, built on first use and reused by warm invocations, all from one session.

Nothing is created at import. Boto3 itself honours AWS_ENDPOINT_URL, so the same code talks to AWS,
moto server or `sam local` without a branch here. The session is kept with the clients (its
credentials sign what app.aws.s3 signs itself) and forgotten with them.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

import boto3
from botocore.config import Config

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_s3 import S3Client
    from mypy_boto3_sesv2 import SESV2Client
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
    # Requests are built by our adapters from pydantic-validated input; DynamoDB validates them again.
    parameter_validation=False,
)
# Virtual-host addressing breaks against a local endpoint such as moto server.
_S3_CONFIG = _CONFIG.merge(Config(s3={"addressing_style": "path"}, signature_version="s3v4"))


@cache
def session() -> boto3.Session:
    """The session every client here comes from: its credentials (refreshed when a role's rotate)."""
    return boto3.Session()


@cache
def dynamodb() -> DynamoDBClient:
    return session().client("dynamodb", config=_CONFIG)


def s3_of(of: boto3.Session) -> S3Client:
    """An S3 client of `of` configured as `s3()` is (path-style addressing, SigV4)."""
    return of.client("s3", config=_S3_CONFIG)


@cache
def s3() -> S3Client:
    return s3_of(session())


@cache
def sns() -> SNSClient:
    return session().client("sns", config=_CONFIG)


@cache
def sqs() -> SQSClient:
    return session().client("sqs", config=_CONFIG)


@cache
def sesv2() -> SESV2Client:
    return session().client("sesv2", config=_CONFIG)


@cache
def ssm() -> Any:
    """SSM Parameter Store (the Web Push VAPID key); untyped: the project carries no stubs for it."""
    return session().client("ssm", config=_CONFIG)


_generation = 0


def generation() -> int:
    """How many times the clients were forgotten: what was built on older ones is stale too."""
    return _generation


def reset() -> None:
    """Forget the session and its clients (tests switch endpoints and credentials between cases)."""
    global _generation
    _generation += 1
    for factory in (session, dynamodb, s3, sns, sqs, sesv2, ssm):
        factory.cache_clear()
