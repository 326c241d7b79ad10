"""Webhook test fixtures: two SQS queues (beside the API's moto table) and a real HTTP receiver on 127.0.0.1.

What the fixtures hand out (Receiver, Queues, sqs_event) lives in tests/support/webhooks.py, the moto
fixtures they stand on in tests/support/aws_fixtures.py. A conftest imports the ones its directory uses
(`from tests.support.webhook_fixtures import queues, receiver`); test modules import from neither.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler

import boto3
import pytest

from app.aws import clients as aws_clients
from app.core.settings import get_settings
from tests.local_http import Quiet, serving
from tests.support.webhooks import DLQ, QUEUE, Queues, Received, Receiver


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


@pytest.fixture
def queues(aws: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[Queues]:
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
