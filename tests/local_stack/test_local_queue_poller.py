"""The local stack's stand-in for the SQS event source mapping, on moto with a real receiver."""

from __future__ import annotations

import boto3
import pytest

from app import bootstrap
from app.aws.sqs import SqsWebhookQueue
from app.core.settings import get_settings
from app.webhooks.dispatch import enqueue_events
from app.webhooks.subscriptions import subscribe
from local_stack.queues import QueuePoller
from tests.api.client import Client
from tests.app.webhooks.test_delivery import start_events
from tests.support.webhooks import Queues, Receiver


def in_queue(queues: Queues) -> int:
    names = ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"]
    attributes = boto3.client("sqs").get_queue_attributes(QueueUrl=queues.url, AttributeNames=names)
    return sum(int(attributes["Attributes"][name]) for name in names)


def test_the_local_poller_deletes_what_was_delivered_and_leaves_a_failure_to_come_back_after_its_backoff(
    queues: Queues, receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    from handlers.webhook_delivery import lambda_handler

    monkeypatch.setenv("WEBHOOK_RETRY_BASE_SECONDS", "1")  # the backoff passes within a second or two
    get_settings.cache_clear()
    services = bootstrap.services()
    owner = services.players.get_player(Client("Local owner").register().player_id)
    assert owner is not None
    subscribe(services, owner, receiver.url, ("turn.owed",))
    receiver.script = [500]
    enqueue_events(services, SqsWebhookQueue(queues.url, queues.dlq_url), start_events(owner))
    lines: list[str] = []
    local = QueuePoller(
        boto3.client("sqs"),
        queues.url,
        "WebhookFunction",
        lambda: lambda_handler,
        report_batch_item_failures=True,  # as template.yaml's Deliveries event declares
        report=lines.append,
    )

    assert local.poll_once() == 1
    assert lines[-1].startswith("turn.owed evt_")
    assert lines[-1].endswith("attempt 1: failed, retried after its backoff")
    assert in_queue(queues) == 1  # hidden for its backoff, not deleted
    for _ in range(20):  # a bounded wait for the backoff, never a timing assertion
        if local.poll_once(wait_seconds=1):
            break
    assert lines[-1].endswith("attempt 2: done")
    assert in_queue(queues) == 0
    assert [r.headers["Dixit-Attempt"] for r in receiver.requests] == ["1", "2"]
