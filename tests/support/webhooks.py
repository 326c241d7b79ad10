"""What the webhook tests talk to: a scripted HTTP receiver, the delivery queues, and SQS's event shape.

The fixtures that start them (`receiver`, `queues`) are in tests/support/webhook_fixtures.py.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

import boto3

QUEUE = "dixit-webhooks-test"
DLQ = "dixit-webhooks-dlq-test"


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """A webhook endpoint: answers each POST as `script` says (a status, or "sleep" to time out)."""

    url: str = ""
    script: list[int | str] = field(default_factory=list)
    otherwise: int = 200
    requests: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def next_answer(self) -> int | str:
        with self.lock:
            return self.script.pop(0) if self.script else self.otherwise


@dataclass(frozen=True)
class Queues:
    url: str
    dlq_url: str

    def receive(self, url: str | None = None, wait: int = 0) -> list[dict[str, Any]]:
        response = boto3.client("sqs").receive_message(
            QueueUrl=url or self.url,
            MaxNumberOfMessages=10,
            AttributeNames=["All"],
            MessageAttributeNames=["All"],
            WaitTimeSeconds=wait,
        )
        return list(response.get("Messages", []))

    def show_again(self, message: dict[str, Any]) -> None:
        """What the passing of the backoff delay does: the message becomes visible again."""
        boto3.client("sqs").change_message_visibility(
            QueueUrl=self.url, ReceiptHandle=message["ReceiptHandle"], VisibilityTimeout=0
        )


def sqs_event(messages: list[dict[str, Any]], queue_arn: str) -> dict[str, Any]:
    """The event Lambda's SQS event source mapping hands the function for these received messages."""
    return {
        "Records": [
            {
                "messageId": m["MessageId"],
                "receiptHandle": m["ReceiptHandle"],
                "body": m["Body"],
                "attributes": m["Attributes"],
                "messageAttributes": {},
                "md5OfBody": m["MD5OfBody"],
                "eventSource": "aws:sqs",
                "eventSourceARN": queue_arn,
                "awsRegion": "us-east-1",
            }
            for m in messages
        ]
    }
