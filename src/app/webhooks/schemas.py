"""The JSON contract of the webhook routes (the event payloads themselves are app.feed.events)."""

from __future__ import annotations

from pydantic import Field

from app.core.schema_base import Request, Schema
from app.feed.events import EVENT_TYPES, Event
from app.webhooks.records import DeliveryAttempt, WebhookRecord


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


class WebhookHealth(Schema):
    consecutive_failures: int = Field(
        description="Failed deliveries in a row (0 after a success)", examples=[0]
    )
    disabled: bool = Field(
        description="Set after 20 consecutive failures; nothing more is sent", examples=[False]
    )
    disabled_at: str | None = Field(
        description="When it was disabled (ISO-8601 UTC), or null", examples=[None]
    )
    last_delivery_at: str | None = Field(
        description="When the last delivery was attempted (ISO-8601 UTC), or null",
        examples=["2026-11-30T09:30:00Z"],
    )
    last_status: str | None = Field(
        description='The last HTTP status, or "timeout", "connection_error"...', examples=["200"]
    )


class WebhookOut(Schema):
    webhook_id: str = Field(description="The webhook's id", examples=["wh_8f14e45fceea167a"])
    url: str = Field(
        description="Where events are POSTed", examples=["https://bot.example.com/dixit/webhooks"]
    )
    events: list[str] = Field(
        description="The event types it receives", examples=[["turn.owed", "round.revealed"]]
    )
    created_at: str = Field(
        description="When it was created (ISO-8601 UTC)", examples=["2026-11-30T09:30:00Z"]
    )
    health: WebhookHealth = Field(
        description="Delivery health: failures in a row, disabled or not, the last attempt",
        examples=[
            {
                "consecutive_failures": 0,
                "disabled": False,
                "disabled_at": None,
                "last_delivery_at": None,
                "last_status": None,
            }
        ],
    )


class WebhookCreated(WebhookOut):
    secret: str = Field(
        description="Signing secret for Dixit-Signature; shown only in this response", examples=["whsec_kq3…"]
    )


class WebhookList(Schema):
    webhooks: list[WebhookOut] = Field(description="Your webhooks, oldest first", examples=[[]])


class SecretRotated(Schema):
    webhook_id: str = Field(description="The webhook's id", examples=["wh_8f14e45fceea167a"])
    secret: str = Field(
        description="The new signing secret, in use at once; shown only in this response",
        examples=["whsec_kq3…"],
    )


class DeliveryAttemptOut(Schema):
    delivery_id: str = Field(
        description="Sent as Dixit-Delivery; the same for every retry of one delivery",
        examples=["dlv_5d41402abc4b2a76"],
    )
    event_id: str = Field(
        description="The event delivered (its `id`)", examples=["evt_5d41402abc4b2a76_0000000012_turn.owed"]
    )
    event_type: str = Field(description="The event's type", examples=["turn.owed"])
    attempt: int = Field(description="Which attempt of this delivery, from 1", examples=[1])
    attempted_at: str = Field(description="When (ISO-8601 UTC)", examples=["2026-11-30T09:30:00Z"])
    outcome: str = Field(
        description="delivered, failed (retried at next_retry_at), gave_up or dropped", examples=["delivered"]
    )
    status: str = Field(
        description="The receiver's HTTP status, or timeout / connection_error / refused_address",
        examples=["200"],
    )
    latency_ms: int | None = Field(description="How long the receiver took, or null", examples=[84])
    next_retry_at: str | None = Field(
        description="When the next attempt is due (ISO-8601 UTC), or null", examples=[None]
    )


class DeliveryList(Schema):
    deliveries: list[DeliveryAttemptOut] = Field(description="Recent attempts, newest first", examples=[[]])


# The out models name their fields as the records do, so each reads them straight from the record.
def webhook_out(record: WebhookRecord) -> WebhookOut:
    return WebhookOut(
        webhook_id=record.webhook_id,
        url=record.url,
        events=list(record.events),
        created_at=record.created_at,
        health=WebhookHealth.model_validate(record, from_attributes=True),
    )


def attempt_out(attempt: DeliveryAttempt) -> DeliveryAttemptOut:
    return DeliveryAttemptOut.model_validate(attempt, from_attributes=True)


class EventFeed(Schema):
    events: list[Event] = Field(
        description="Your copy of the game's events, oldest first", examples=[["turn.owed", "round.revealed"]]
    )
    cursor: str = Field(
        description="Pass as `after` to resume after the last event given", examples=["0000000012.001"]
    )
    has_more: bool = Field(
        description="True when more events may follow at once: ask again with the cursor", examples=[False]
    )
