"""Webhook tests: the API's moto table, two SQS queues, and a real HTTP receiver on 127.0.0.1."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

import boto3
import pytest

from app.aws import clients as aws_clients
from app.core.settings import get_settings
from tests.api.conftest import _moto_table, aws  # noqa: F401  (fixtures shared with the API tests)
from tests.local_http import Quiet, serving

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


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    state = Receiver()

    class Handler(Quiet, BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            with state.lock:
                state.requests.append(Received(self.path, dict(self.headers.items()), body))
            answer = state.next_answer()
            if answer == "sleep":
                time.sleep(1.5)  # longer than the tests' delivery timeout
                answer = 200
            try:
                self.send_response(int(answer))
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")
            except OSError:
                pass  # the sender gave up waiting: exactly what a timeout test wants

    with serving(Handler) as base:
        state.url = f"{base}/hooks/dixit"
        yield state


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


@pytest.fixture
def queues(aws: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[Queues]:  # noqa: F811
    sqs = boto3.client("sqs")
    dlq_url = sqs.create_queue(QueueName=DLQ)["QueueUrl"]
    dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq_url, AttributeNames=["QueueArn"])["Attributes"][
        "QueueArn"
    ]
    url = sqs.create_queue(
        QueueName=QUEUE,
        Attributes={
            "VisibilityTimeout": "60",
            "RedrivePolicy": json.dumps({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": "50"}),
        },
    )["QueueUrl"]
    monkeypatch.setenv("WEBHOOK_QUEUE_URL", url)
    monkeypatch.setenv("WEBHOOK_DLQ_URL", dlq_url)
    monkeypatch.setenv("WEBHOOK_ALLOW_LOOPBACK_HTTP", "true")
    monkeypatch.setenv("WEBHOOK_TIMEOUT_SECONDS", "0.3")
    get_settings.cache_clear()
    aws_clients.reset()
    yield Queues(url, dlq_url)
    sqs.delete_queue(QueueUrl=url)
    sqs.delete_queue(QueueUrl=dlq_url)
    get_settings.cache_clear()


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
