"""The webhook queue on moto: bodies go on the queue; SQS failing is a refusal of them all, never an
exception (the stream retries its record; table talk keeps a stored message, app.flows.table_talk)."""

from __future__ import annotations

import boto3
import pytest

from app.aws.sqs import SqsWebhookQueue
from tests.support.aws import forget_clients_and_settings, set_environment


@pytest.mark.usefixtures("_moto")
def test_the_webhook_queue_takes_bodies_and_reports_a_failing_sqs_as_refusing_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    set_environment(monkeypatch)
    sqs = boto3.client("sqs")
    url = sqs.create_queue(QueueName="dixit-webhooks-test")["QueueUrl"]
    assert SqsWebhookQueue(url, client=sqs).send(['{"id":"d1"}', '{"id":"d2"}']) == []
    bodies = sorted(m["Body"] for m in sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"])
    assert bodies == ['{"id":"d1"}', '{"id":"d2"}']
    missing = SqsWebhookQueue("https://sqs.us-east-1.amazonaws.com/123456789012/none", client=sqs)
    assert missing.send(["a", "b"]) == ["a", "b"]
    assert missing.send([]) == []
    forget_clients_and_settings()
