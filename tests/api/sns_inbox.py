"""Reading what was published to SNS: a queue subscribed to the topic, and moto's push endpoints."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import boto3
import pytest

from app.core.settings import get_settings

ACCOUNT = "123456789012"


@dataclass(frozen=True)
class Published:
    body: dict[str, Any]
    attributes: dict[str, str]
    raw: str


def make_topic(monkeypatch: pytest.MonkeyPatch, name: str = "dixit-notify-test") -> str:
    topic_arn = boto3.client("sns").create_topic(Name=name)["TopicArn"]
    monkeypatch.setenv("NUDGE_TOPIC_ARN", topic_arn)
    get_settings.cache_clear()
    return topic_arn


def subscribe_queue(topic_arn: str, name: str, filter_policy: dict[str, Any] | None = None) -> str:
    """An SQS queue with raw delivery: SNS message attributes arrive as SQS message attributes."""
    sns, sqs = boto3.client("sns"), boto3.client("sqs")
    queue_url = sqs.create_queue(QueueName=name)["QueueUrl"]
    received(queue_url)  # left over from an earlier test of the module
    queue_arn = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["QueueArn"])["Attributes"][
        "QueueArn"
    ]
    attributes = {"RawMessageDelivery": "true"}
    if filter_policy is not None:
        attributes["FilterPolicy"] = json.dumps(filter_policy)
    sns.subscribe(TopicArn=topic_arn, Protocol="sqs", Endpoint=queue_arn, Attributes=attributes)
    return queue_url


def received(queue_url: str) -> list[Published]:
    sqs = boto3.client("sqs")
    found: list[Published] = []
    while True:
        messages = sqs.receive_message(
            QueueUrl=queue_url, MaxNumberOfMessages=10, MessageAttributeNames=["All"]
        ).get("Messages", [])
        if not messages:
            return found
        for message in messages:
            found.append(
                Published(
                    body=json.loads(message["Body"]),
                    attributes={
                        k: v["StringValue"] for k, v in (message.get("MessageAttributes") or {}).items()
                    },
                    raw=message["Body"],
                )
            )
            sqs.delete_message(QueueUrl=queue_url, ReceiptHandle=message["ReceiptHandle"])


def endpoint_messages(endpoint_arn: str) -> list[dict[str, Any]]:
    """What moto's SNS kept for one platform endpoint (it has no API to read pushes back)."""
    from moto.sns.models import sns_backends

    endpoint = sns_backends[ACCOUNT]["us-east-1"].platform_endpoints[endpoint_arn]
    return [json.loads(text) for text in endpoint.messages.values()]


def endpoint_exists(endpoint_arn: str) -> bool:
    from moto.sns.models import sns_backends

    return endpoint_arn in sns_backends[ACCOUNT]["us-east-1"].platform_endpoints
