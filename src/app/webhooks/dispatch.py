"""Webhook delivery off the move path: events become one queue message per matching webhook, and each
message becomes signed HTTPS POSTs, retried with backoff through the queue until 24 h have passed.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

from app.core.telemetry import count, logger
from app.feed.events import Event
from app.webhooks import ssrf
from app.webhooks.http import HttpOutcome, post
from app.webhooks.ports import MAX_VISIBILITY_SECONDS, Enqueueing, Posting, WebhookQueue
from app.webhooks.records import DeliveryAttempt, Outcome, WebhookRecord
from app.webhooks.signing import HEADER, sign
from dixit.lean_dataclass import dataclass

USER_AGENT = "DixitByMail-Webhooks/1.0"


@dataclass(frozen=True, slots=True)
class WebhookMessage:
    """What the queue carries: which webhook, which event; the URL and secret are read at delivery."""

    webhook_id: str
    player_id: str
    delivery_id: str
    enqueued_at: str
    event: dict[str, Any]

    def to_json(self) -> str:
        return json.dumps(
            {
                "webhook_id": self.webhook_id,
                "player_id": self.player_id,
                "delivery_id": self.delivery_id,
                "enqueued_at": self.enqueued_at,
                "event": self.event,
            },
            separators=(",", ":"),
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str) -> WebhookMessage:
        data = json.loads(text)
        return cls(
            webhook_id=str(data["webhook_id"]),
            player_id=str(data["player_id"]),
            delivery_id=str(data["delivery_id"]),
            enqueued_at=str(data["enqueued_at"]),
            event=dict(data["event"]),
        )


def delivery_id(webhook_id: str, event_id: str) -> str:
    """The same event to the same webhook always has the same id, however often it is enqueued."""
    return f"dlv_{hashlib.sha256(f'{webhook_id}|{event_id}'.encode()).hexdigest()[:24]}"


def messages_for(
    events: Iterable[Event], webhooks_of: Callable[[str], list[WebhookRecord]], enqueued_at: str
) -> list[WebhookMessage]:
    """One message per (event, webhook of its recipient that subscribed to its type and is enabled)."""
    known: dict[str, list[WebhookRecord]] = {}
    messages: list[WebhookMessage] = []
    for event in events:
        if event.recipient_id not in known:
            known[event.recipient_id] = webhooks_of(event.recipient_id)
        for webhook in known[event.recipient_id]:
            if webhook.wants(event.type):
                messages.append(
                    WebhookMessage(
                        webhook_id=webhook.webhook_id,
                        player_id=webhook.player_id,
                        delivery_id=delivery_id(webhook.webhook_id, event.id),
                        enqueued_at=enqueued_at,
                        event=event.model_dump(mode="json"),
                    )
                )
    return messages


def enqueue_events(ports: Enqueueing, queue: WebhookQueue, events: Iterable[Event]) -> int:
    """Enqueue the deliveries `events` call for (the flows call this); how many were sent.

    Raises RuntimeError when SQS refused some, so the consumer reports its stream record as failed and
    it is retried: delivery ids make the repeats harmless to receivers.
    """
    messages = messages_for(events, ports.webhooks.list_webhooks, ports.now_iso())
    refused = queue.send([m.to_json() for m in messages])
    if refused:
        raise RuntimeError(f"SQS refused {len(refused)} of {len(messages)} webhook messages")
    return len(messages)


@dataclass(frozen=True, slots=True)
class RetryLater:
    delay_seconds: int


@dataclass(frozen=True, slots=True)
class Finished:
    outcome: Outcome


def backoff_seconds(attempt: int, base: int, rng: random.Random | None = None) -> int:
    """Exponential backoff with jitter: somewhere in the upper half of base * 2^(attempt-1), capped."""
    ceiling = min(MAX_VISIBILITY_SECONDS, base * 2 ** min(attempt - 1, 30))
    return max(1, round((rng or random.Random()).uniform(ceiling / 2, ceiling)))


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds")


def deliver(
    services: Posting,
    queue: WebhookQueue,
    message: WebhookMessage,
    *,
    attempt: int,
    rng: random.Random | None = None,
) -> RetryLater | Finished:
    """One delivery attempt of `message` (its `attempt`-th receive); says whether to try again later."""
    settings = services.settings
    now = services.clock()
    webhook = services.webhooks.get_webhook(message.player_id, message.webhook_id)
    if webhook is None:
        return Finished("dropped")  # deleted since: nobody to tell, nowhere to record

    event_id, event_type = str(message.event.get("id", "")), str(message.event.get("type", ""))

    def record(outcome: Outcome, status: str, latency_ms: int | None, next_retry_at: str | None) -> None:
        # WebhookDeliveries_gave_up over WebhookDeliveries_* is the give-up rate the stack alarms on.
        count(f"WebhookDeliveries_{outcome}")
        services.webhooks.put_delivery_attempt(
            DeliveryAttempt(
                webhook_id=webhook.webhook_id,
                delivery_id=message.delivery_id,
                event_id=event_id,
                event_type=event_type,
                attempt=attempt,
                attempted_at=_iso(now),
                outcome=outcome,
                status=status,
                latency_ms=latency_ms,
                next_retry_at=next_retry_at,
            ),
            expires_at=int(now.timestamp()) + settings.webhook_attempt_ttl_seconds,
        )

    if webhook.disabled:
        record("dropped", "webhook_disabled", None, None)
        return Finished("dropped")

    body = json.dumps(message.event, separators=(",", ":"), ensure_ascii=False).encode()
    try:
        # Vetted again now: the name may resolve elsewhere than at registration.
        target = ssrf.vet(
            webhook.url,
            allow_loopback_http=settings.webhook_allow_loopback_http,
            refused_loopback_ports=settings.refused_loopback_ports,
        )
    except ssrf.UnsafeUrl as refused:
        outcome = HttpOutcome(False, refused.code, 0)
    except Exception:  # a URL that cannot even be vetted is a failed attempt, never a lost one
        logger.exception("webhook URL could not be vetted", extra={"webhook_id": webhook.webhook_id})
        outcome = HttpOutcome(False, "request_error", 0)
    else:
        timestamp = int(now.timestamp())
        headers = {
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            HEADER: sign(webhook.secret, timestamp, body),
            "Dixit-Delivery": message.delivery_id,
            "Dixit-Event": event_type,
            "Dixit-Attempt": str(attempt),
        }
        outcome = post(target, body, headers, settings.webhook_timeout_seconds)

    health = services.webhooks.record_webhook_result(
        webhook.player_id,
        webhook.webhook_id,
        ok=outcome.ok,
        status=outcome.status,
        at=_iso(now),
        disable_after=settings.webhook_disable_after_failures,
    )
    if outcome.ok:
        record("delivered", outcome.status, outcome.latency_ms, None)
        return Finished("delivered")
    if health is None or health.disabled:
        record("failed", outcome.status, outcome.latency_ms, None)
        if health is not None:
            logger.warning("webhook disabled", extra={"webhook_id": webhook.webhook_id})
        return Finished("failed")

    delay = backoff_seconds(attempt, settings.webhook_retry_base_seconds, rng)
    retry_at = now + timedelta(seconds=delay)
    give_up_at = datetime.fromisoformat(message.enqueued_at) + timedelta(
        seconds=settings.webhook_retry_for_seconds
    )
    if retry_at > give_up_at:
        record("gave_up", outcome.status, outcome.latency_ms, None)
        if queue.dlq_url:
            queue.dead_letter(message.to_json(), f"gave up after {attempt} attempts: {outcome.status}")
        return Finished("gave_up")
    record("failed", outcome.status, outcome.latency_ms, _iso(retry_at))
    return RetryLater(delay)
