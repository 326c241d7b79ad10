"""AWS clients, built on first use and reused by warm invocations, all from one botocore session.

Nothing is created at import. botocore itself honours AWS_ENDPOINT_URL (and AWS_ENDPOINT_URL_<SERVICE>),
so the same code talks to AWS, moto server or `sam local` without a branch here. The session is kept
with the clients (its credentials sign what app.aws.s3 signs itself) and forgotten with them.

The clients come from botocore, not boto3: boto3 only wraps the same session and clients, and its
import (with s3transfer) is CPU every cold start pays for nothing the product uses.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, cast

import botocore.loaders
import botocore.session
from botocore.config import Config

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_s3 import S3Client
    from mypy_boto3_sesv2 import SESV2Client
    from mypy_boto3_sns import SNSClient
    from mypy_boto3_sqs import SQSClient

# Standard mode retries throttling, 5xx and connection errors with jittered backoff: 4 attempts in all
# (what `max_attempts: 3` always meant to botocore, which counts retries there; stated as a total now).
# Short timeouts: a DynamoDB call answers in milliseconds, and every second spent waiting on a dead
# connection is a second the use case cannot spend on its own retries inside the Lambda's 10 s.
_CONFIG = Config(
    retries={"mode": "standard", "total_max_attempts": 4},
    connect_timeout=1,
    read_timeout=2,
    tcp_keepalive=True,
    # Requests are built by our adapters from pydantic-validated input; DynamoDB validates them again.
    parameter_validation=False,
)
# SES SendEmail is not idempotent: an SDK retry after a lost answer sends the mail twice. One attempt,
# and the notification queue retries (after the send's claim expired, when the answer was lost).
_SES_CONFIG = _CONFIG.merge(Config(retries={"mode": "standard", "total_max_attempts": 1}))
# The same for SNS Publish (the topic, a device): a notification's publishes go through a client of
# their own that never repeats one; endpoint management keeps the retrying one.
_ONCE_CONFIG = _SES_CONFIG
# Virtual-host addressing breaks against a local endpoint such as moto server.
_S3_CONFIG = _CONFIG.merge(Config(s3={"addressing_style": "path"}, signature_version="s3v4"))


@cache
def _models() -> botocore.loaders.Loader:
    """botocore's reader of service models, kept when the session is forgotten: a model is the same
    JSON file whatever the credentials, and reading one again is 10-30 ms of CPU per client."""
    return botocore.loaders.create_loader()


@cache
def session() -> botocore.session.Session:
    """The session every client here comes from: its credentials (refreshed when a role's rotate)."""
    fresh = botocore.session.get_session()
    fresh.register_component("data_loader", _models())
    return fresh


SERVICES = ("dynamodb", "s3", "sns", "sqs", "sesv2", "ssm")


def read_models() -> None:
    """Read every client's service model now, touching no credential and no connection (SnapStart's
    before-snapshot warm-up: restores then build their clients without reading the files)."""
    models = _models()
    for shared in ("endpoints", "partitions", "sdk-default-configuration"):
        models.load_data(shared)
    for service in SERVICES:
        # Keyed by version as a client asks for them (botocore memoizes per argument).
        version = models.determine_latest_version(service, "service-2")
        for kind in ("service-2", "endpoint-rule-set-1"):
            models.load_service_model(service, kind, api_version=version)


def _client(service: str, config: Config = _CONFIG) -> Any:
    return session().create_client(service, config=config)


@cache
def dynamodb() -> DynamoDBClient:
    return cast("DynamoDBClient", _client("dynamodb"))


def s3_of(of: botocore.session.Session) -> S3Client:
    """An S3 client of `of` configured as `s3()` is (path-style addressing, SigV4)."""
    return cast("S3Client", of.create_client("s3", config=_S3_CONFIG))


@cache
def s3() -> S3Client:
    return s3_of(session())


@cache
def sns() -> SNSClient:
    return cast("SNSClient", _client("sns"))


@cache
def sns_once() -> SNSClient:
    """SNS for Publish: one attempt per call (the notification queue retries, by dedupe id)."""
    return cast("SNSClient", _client("sns", _ONCE_CONFIG))


@cache
def sqs() -> SQSClient:
    return cast("SQSClient", _client("sqs"))


@cache
def sesv2() -> SESV2Client:
    return cast("SESV2Client", _client("sesv2", _SES_CONFIG))


@cache
def ssm() -> Any:
    """SSM Parameter Store (the Web Push VAPID key); untyped: the project carries no stubs for it."""
    return _client("ssm")


# PostToConnection to the live channel's sockets: one attempt, a second to connect and one to answer.
# A dead or slow connection must not hold up the others after it; the live queue retries the message.
_LIVE_CONFIG = Config(
    retries={"mode": "standard", "total_max_attempts": 1}, connect_timeout=1, read_timeout=1
)


def live_connections(endpoint_url: str) -> Any:
    """API Gateway's management API of the live WebSocket API at `endpoint_url` (its stage's https URL;
    the local stack's own, locally); untyped: the project carries no stubs for it. Built by the caller,
    which keeps it: one per endpoint."""
    return session().create_client("apigatewaymanagementapi", endpoint_url=endpoint_url, config=_LIVE_CONFIG)


_generation = 0


def generation() -> int:
    """How many times the clients were forgotten: what was built on older ones is stale too."""
    return _generation


def reset() -> None:
    """Forget the session and its clients (tests switch endpoints and credentials between cases)."""
    global _generation
    _generation += 1
    for factory in (session, dynamodb, s3, sns, sns_once, sqs, sesv2, ssm):
        factory.cache_clear()
