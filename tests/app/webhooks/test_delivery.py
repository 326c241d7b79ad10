"""Delivering webhooks over real HTTP: signed, retried through the queue, disabled when always failing."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest

from app import bootstrap
from app.aws.sqs import SqsWebhookQueue
from app.core.records import PlayerRecord
from app.feed.events import Event, derive_events
from app.services import Services
from app.webhooks import ssrf
from app.webhooks.dispatch import WebhookMessage, backoff_seconds, deliver, enqueue_events
from app.webhooks.ports import MAX_VISIBILITY_SECONDS, WebhookQueue
from app.webhooks.records import WebhookRecord
from app.webhooks.signing import REPLAY_WINDOW_SECONDS, verify
from app.webhooks.subscriptions import subscribe
from dixit.engine import apply, new_game
from dixit.moves import Join, Start
from dixit.settings import Settings
from tests.api.client import Client, FakeContext
from tests.support.webhooks import Queues, Receiver, sqs_event

NOW = 1_800_000_000  # epoch seconds: the rules core takes the time from its caller


def services() -> Services:
    return bootstrap.services()


def player() -> PlayerRecord:
    client = Client("Webhook owner").register()
    found = services().players.get_player(client.player_id)
    assert found is not None
    return found


def start_events(owner: PlayerRecord) -> list[Event]:
    """What starting a three-seat game means for `owner`: game.started, then turn.owed."""
    lobby = new_game(
        "g_00000000000000aa",
        host_id=owner.player_id,
        host_name="Host",
        settings=Settings.build("classic"),
        seed=3,
    )
    for seat in (1, 2):
        lobby = apply(lobby, Join(f"p_other{seat}", f"Other {seat}"), now=NOW).state
    started = apply(lobby, Start(owner.player_id), now=NOW).state
    return derive_events(lobby, started, owner.player_id, occurred_at="2026-11-30T12:00:00+00:00")


def queue(queues: Queues) -> WebhookQueue:
    return SqsWebhookQueue(queues.url, queues.dlq_url)


def arn_of(queues: Queues) -> str:
    attributes = boto3.client("sqs").get_queue_attributes(QueueUrl=queues.url, AttributeNames=["QueueArn"])
    return attributes["Attributes"]["QueueArn"]


def run_function(queues: Queues, messages: list[dict[str, Any]]) -> list[str]:
    """Invoke WebhookFunction on these messages; the ids it reports as failed."""
    from handlers.webhook_delivery import lambda_handler

    result = lambda_handler(sqs_event(messages, arn_of(queues)), FakeContext())
    return [failure["itemIdentifier"] for failure in result["batchItemFailures"]]


def subscribed(
    owner: PlayerRecord, receiver: Receiver, events: tuple[str, ...] = ("turn.owed",)
) -> tuple[WebhookRecord, str]:
    return subscribe(services(), owner, receiver.url, events)


def test_a_delivery_is_signed_and_its_signature_verifies_only_within_the_replay_window(
    queues: Queues, receiver: Receiver
) -> None:
    owner = player()
    webhook, secret = subscribed(owner, receiver)
    assert enqueue_events(services(), queue(queues), start_events(owner)) == 1  # game.started not subscribed
    messages = queues.receive()
    assert run_function(queues, messages) == []

    [request] = receiver.requests
    body, header = request.body, request.headers["Dixit-Signature"]
    timestamp = int(header.split(",")[0].removeprefix("t="))
    assert json.loads(body)["type"] == "turn.owed"
    assert request.path == "/hooks/dixit"
    assert request.headers["Dixit-Event"] == "turn.owed"
    assert request.headers["Dixit-Delivery"] == WebhookMessage.from_json(messages[0]["Body"]).delivery_id
    assert verify(secret, header, body, now=timestamp)
    assert verify(secret, header, body, now=timestamp + REPLAY_WINDOW_SECONDS)
    assert not verify(secret, header, body, now=timestamp + REPLAY_WINDOW_SECONDS + 1)
    assert not verify(secret, header, body.replace(b"turn.owed", b"turn.owes"), now=timestamp)
    assert not verify("whsec_someone_else", header, body, now=timestamp)
    [attempt] = services().webhooks.list_delivery_attempts(webhook.webhook_id, 10)
    assert (attempt.outcome, attempt.status, attempt.attempt, attempt.next_retry_at) == (
        "delivered",
        "200",
        1,
        None,
    )
    assert queues.receive() == []  # delivered messages leave the queue


def test_a_receiver_500_is_retried_after_a_backoff_held_in_the_message_visibility(
    queues: Queues, receiver: Receiver
) -> None:
    owner = player()
    webhook, _ = subscribed(owner, receiver)
    receiver.script = [500]
    enqueue_events(services(), queue(queues), start_events(owner))
    first = queues.receive()
    assert run_function(queues, first) == [first[0]["MessageId"]]
    assert queues.receive() == []  # hidden for the backoff, not redelivered at once
    [failed] = services().webhooks.list_delivery_attempts(webhook.webhook_id, 10)
    assert (failed.outcome, failed.status) == ("failed", "500")
    assert failed.next_retry_at is not None
    assert failed.next_retry_at > failed.attempted_at
    health = services().webhooks.get_webhook(owner.player_id, webhook.webhook_id)
    assert health is not None
    assert health.consecutive_failures == 1

    queues.show_again(first[0])
    second = queues.receive()
    assert second[0]["Attributes"]["ApproximateReceiveCount"] == "2"
    assert run_function(queues, second) == []
    assert [r.headers["Dixit-Attempt"] for r in receiver.requests] == ["1", "2"]
    assert len({r.headers["Dixit-Delivery"] for r in receiver.requests}) == 1  # one id: receivers dedupe
    healed = services().webhooks.get_webhook(owner.player_id, webhook.webhook_id)
    assert healed is not None
    assert (healed.consecutive_failures, healed.last_status) == (0, "200")


def test_a_receiver_that_does_not_answer_within_the_timeout_is_retried(
    queues: Queues, receiver: Receiver
) -> None:
    owner = player()
    webhook, _ = subscribed(owner, receiver)
    receiver.script = ["sleep"]
    enqueue_events(services(), queue(queues), start_events(owner))
    first = queues.receive()
    assert run_function(queues, first) == [first[0]["MessageId"]]
    [attempt] = services().webhooks.list_delivery_attempts(webhook.webhook_id, 10)
    assert (attempt.outcome, attempt.status) == ("failed", "timeout")
    queues.show_again(first[0])
    assert run_function(queues, queues.receive()) == []
    assert len(receiver.requests) == 2


def test_twenty_consecutive_failures_disable_the_webhook_and_later_messages_are_dropped_unsent(
    queues: Queues, receiver: Receiver
) -> None:
    owner = player()
    webhook, _ = subscribed(owner, receiver)
    receiver.otherwise = 503
    [event] = [e for e in start_events(owner) if e.type == "turn.owed"]
    message = WebhookMessage(
        webhook.webhook_id, owner.player_id, "dlv_x", services().now_iso(), event.model_dump(mode="json")
    )
    outcomes = [deliver(services(), queue(queues), message, attempt=n) for n in range(1, 21)]
    assert all(type(o).__name__ == "RetryLater" for o in outcomes[:19])
    assert outcomes[19].outcome == "failed"  # type: ignore[union-attr]
    disabled = services().webhooks.get_webhook(owner.player_id, webhook.webhook_id)
    assert disabled is not None
    assert (disabled.disabled, disabled.consecutive_failures) == (True, 20)
    assert disabled.disabled_at is not None

    after = deliver(services(), queue(queues), message, attempt=21)
    assert after.outcome == "dropped"  # type: ignore[union-attr]
    assert len(receiver.requests) == 20
    assert services().webhooks.list_delivery_attempts(webhook.webhook_id, 1)[0].status == "webhook_disabled"


def test_a_delivery_still_failing_after_24_hours_goes_to_the_dead_letter_queue(
    queues: Queues, receiver: Receiver
) -> None:
    owner = player()
    webhook, _ = subscribed(owner, receiver)
    receiver.otherwise = 500
    [event] = [e for e in start_events(owner) if e.type == "turn.owed"]
    long_ago = (datetime.now(UTC) - timedelta(hours=24, seconds=-5)).isoformat()  # the next try would be late
    message = WebhookMessage(
        webhook.webhook_id, owner.player_id, "dlv_y", long_ago, event.model_dump(mode="json")
    )
    boto3.client("sqs").send_message(QueueUrl=queues.url, MessageBody=message.to_json())
    assert run_function(queues, queues.receive()) == []  # handled: not retried again
    [dead] = queues.receive(queues.dlq_url)
    assert WebhookMessage.from_json(dead["Body"]).delivery_id == "dlv_y"
    assert dead["MessageAttributes"]["reason"]["StringValue"].startswith("gave up after 1 attempts: 500")
    assert services().webhooks.list_delivery_attempts(webhook.webhook_id, 1)[0].outcome == "gave_up"


def test_a_name_that_resolves_to_the_metadata_address_at_delivery_time_is_not_called(
    queues: Queues, receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    owner = player()
    webhook, _ = subscribed(owner, receiver)
    # DNS rebinding: the name was loopback (allowed on the local stack) at registration, now metadata.
    monkeypatch.setattr(ssrf, "system_resolver", lambda host, port: ["169.254.169.254"])
    enqueue_events(services(), queue(queues), start_events(owner))
    assert len(run_function(queues, queues.receive())) == 1
    assert receiver.requests == []
    [attempt] = services().webhooks.list_delivery_attempts(webhook.webhook_id, 10)
    assert (attempt.outcome, attempt.status) == ("failed", "webhook_url_forbidden_address")


def test_only_enabled_webhooks_subscribed_to_the_event_type_get_a_message(
    queues: Queues, receiver: Receiver
) -> None:
    owner = player()
    subscribed(owner, receiver, ("turn.owed",))
    subscribed(owner, receiver, ("game.started", "turn.owed"))
    subscribed(owner, receiver, ("round.revealed",))
    assert enqueue_events(services(), queue(queues), start_events(owner)) == 3
    assert enqueue_events(services(), queue(queues), []) == 0
    bodies = [WebhookMessage.from_json(m["Body"]) for m in queues.receive()]
    assert sorted(m.event["type"] for m in bodies) == ["game.started", "turn.owed", "turn.owed"]
    assert all("secret" not in json.dumps(m.event) and m.player_id == owner.player_id for m in bodies)


def test_a_malformed_message_goes_straight_to_the_dead_letter_queue(queues: Queues) -> None:
    boto3.client("sqs").send_message(QueueUrl=queues.url, MessageBody="not json")
    assert run_function(queues, queues.receive()) == []
    assert [m["Body"] for m in queues.receive(queues.dlq_url)] == ["not json"]


def test_backoff_doubles_with_jitter_in_its_upper_half_and_never_exceeds_the_visibility_ceiling() -> None:
    rng = random.Random(1)
    for attempt in range(1, 12):
        ceiling = 30 * 2 ** (attempt - 1)
        assert ceiling / 2 <= backoff_seconds(attempt, 30, rng) <= ceiling
    assert max(backoff_seconds(n, 30, rng) for n in range(12, 40)) <= MAX_VISIBILITY_SECONDS


def test_a_replayed_stream_record_enqueues_the_same_delivery_ids_so_receivers_can_drop_repeats(
    queues: Queues, receiver: Receiver
) -> None:
    owner = player()
    subscribed(owner, receiver, ("game.started", "turn.owed"))
    enqueue_events(services(), queue(queues), start_events(owner))
    enqueue_events(services(), queue(queues), start_events(owner))  # the consumer retried its batch
    ids = [WebhookMessage.from_json(m["Body"]).delivery_id for m in queues.receive()]
    assert len(ids) == 4
    assert len(set(ids)) == 2
