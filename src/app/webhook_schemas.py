"""The JSON contract of the webhook routes (the event payloads themselves are app.events)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from app.events import EVENT_TYPES, Event
from app.schemas import Request
from app.webhook_records import DeliveryAttempt, WebhookRecord


class CreateWebhook(Request):
    url: str = Field(
        description="https URL (at most 2,048 characters) that must resolve to public addresses only",
        examples=["https://bot.example.com/dixit/webhooks"],
    )
    events: list[str] = Field(
        max_length=len(EVENT_TYPES),
        description=f"Event types to receive: any of {', '.join(EVENT_TYPES)}",
        examples=[["turn.owed", "round.revealed", "game.finished"]],
    )


class WebhookHealth(BaseModel):
    consecutive_failures: int
    disabled: bool = Field(description="Set after 20 consecutive failures; nothing more is sent")
    disabled_at: str | None
    last_delivery_at: str | None
    last_status: str | None = Field(description='The last HTTP status, or "timeout", "connection_error"...')


class WebhookOut(BaseModel):
    webhook_id: str
    url: str
    events: list[str]
    created_at: str
    health: WebhookHealth


class WebhookCreated(WebhookOut):
    secret: str = Field(description="Signing secret for Dixit-Signature; shown only in this response")


class WebhookList(BaseModel):
    webhooks: list[WebhookOut]


class SecretRotated(BaseModel):
    webhook_id: str
    secret: str = Field(description="The new signing secret, in use at once; shown only in this response")


class DeliveryAttemptOut(BaseModel):
    delivery_id: str = Field(description="Sent as Dixit-Delivery; the same for every retry of one delivery")
    event_id: str
    event_type: str
    attempt: int
    attempted_at: str
    outcome: str = Field(description="delivered, failed (retried at next_retry_at), gave_up or dropped")
    status: str
    latency_ms: int | None
    next_retry_at: str | None


class DeliveryList(BaseModel):
    deliveries: list[DeliveryAttemptOut]


def webhook_out(record: WebhookRecord) -> WebhookOut:
    return WebhookOut(
        webhook_id=record.webhook_id,
        url=record.url,
        events=list(record.events),
        created_at=record.created_at,
        health=WebhookHealth(
            consecutive_failures=record.consecutive_failures,
            disabled=record.disabled,
            disabled_at=record.disabled_at,
            last_delivery_at=record.last_delivery_at,
            last_status=record.last_status,
        ),
    )


def attempt_out(attempt: DeliveryAttempt) -> DeliveryAttemptOut:
    return DeliveryAttemptOut(
        delivery_id=attempt.delivery_id,
        event_id=attempt.event_id,
        event_type=attempt.event_type,
        attempt=attempt.attempt,
        attempted_at=attempt.attempted_at,
        outcome=attempt.outcome,
        status=attempt.status,
        latency_ms=attempt.latency_ms,
        next_retry_at=attempt.next_retry_at,
    )


class EventFeed(BaseModel):
    events: list[Event] = Field(description="Your copy of the game's events, oldest first")
    cursor: str = Field(description="Pass as `after` to resume after the last event given")
    has_more: bool = Field(description="True when more events may follow at once: ask again with the cursor")
