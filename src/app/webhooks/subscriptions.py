"""Webhook subscriptions: a player registers URLs that receive the events of every game they are in."""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence

from app.core.errors import Conflict, InvalidInput, NotFound
from app.core.records import PlayerRecord
from app.feed.events import EVENT_TYPES
from app.webhooks import ssrf
from app.webhooks.ports import Subscribing, Webhooks
from app.webhooks.records import DeliveryAttempt, WebhookRecord

MAX_WEBHOOKS_PER_PLAYER = 5
RECENT_ATTEMPTS = 50
_WEBHOOK_ID = re.compile(r"^wh_[0-9a-f]{16}$")


class WebhookRefused(InvalidInput):
    """A subscription that can never be valid as sent (an unknown event name...)."""


def new_secret() -> str:
    return f"whsec_{secrets.token_urlsafe(32)}"


def check_webhook_id(webhook_id: str) -> str:
    if not _WEBHOOK_ID.fullmatch(webhook_id):
        raise NotFound("webhook_not_found", "there is no such webhook")
    return webhook_id


def check_events(events: Sequence[str]) -> tuple[str, ...]:
    if not events:
        raise WebhookRefused("webhook_no_events", f"subscribe to at least one of: {', '.join(EVENT_TYPES)}")
    unknown = sorted(set(events) - set(EVENT_TYPES))
    if unknown:
        raise WebhookRefused(
            "webhook_unknown_event",
            f"unknown event {', '.join(repr(e[:40]) for e in unknown[:3])}; known: {', '.join(EVENT_TYPES)}",
        )
    return tuple(dict.fromkeys(events))


def subscribe(
    services: Subscribing, player: PlayerRecord, url: str, events: Sequence[str]
) -> tuple[WebhookRecord, str]:
    """A new webhook and its signing secret (shown to the player this once)."""
    wanted = check_events(events)
    # Stored as it will be called (IDNA host, percent-encoded path): delivery never meets a URL that
    # cannot be written on the wire.
    url = ssrf.normalize(url)
    ssrf.vet(
        url,
        allow_loopback_http=services.settings.webhook_allow_loopback_http,
        refused_loopback_ports=services.settings.refused_loopback_ports,
    )
    secret = new_secret()
    record = WebhookRecord(
        webhook_id=f"wh_{secrets.token_hex(8)}",
        player_id=player.player_id,
        url=url,
        events=wanted,
        secret=secret,
        created_at=services.now_iso(),
    )
    if not services.webhooks.create_webhook(record, max_per_player=MAX_WEBHOOKS_PER_PLAYER):
        raise Conflict(
            "webhook_limit_reached",
            f"a player may have at most {MAX_WEBHOOKS_PER_PLAYER} webhooks; delete one first",
        )
    return record, secret


def webhooks_of(services: Webhooks, player: PlayerRecord) -> list[WebhookRecord]:
    return sorted(
        services.webhooks.list_webhooks(player.player_id), key=lambda w: (w.created_at, w.webhook_id)
    )


def _own(services: Webhooks, player: PlayerRecord, webhook_id: str) -> WebhookRecord:
    record = services.webhooks.get_webhook(player.player_id, check_webhook_id(webhook_id))
    if record is None:
        raise NotFound("webhook_not_found", "there is no such webhook")
    return record


def webhook_of(services: Webhooks, player: PlayerRecord, webhook_id: str) -> WebhookRecord:
    return _own(services, player, webhook_id)


def unsubscribe(services: Webhooks, player: PlayerRecord, webhook_id: str) -> None:
    if not services.webhooks.delete_webhook(player.player_id, check_webhook_id(webhook_id)):
        raise NotFound("webhook_not_found", "there is no such webhook")


def rotate_secret(services: Webhooks, player: PlayerRecord, webhook_id: str) -> tuple[WebhookRecord, str]:
    """A new secret replaces the old one at once; deliveries already queued are signed with the new one."""
    record = _own(services, player, webhook_id)
    secret = new_secret()
    if not services.webhooks.set_webhook_secret(player.player_id, record.webhook_id, secret):
        raise NotFound("webhook_not_found", "there is no such webhook")
    return record, secret


def recent_attempts(services: Webhooks, player: PlayerRecord, webhook_id: str) -> list[DeliveryAttempt]:
    record = _own(services, player, webhook_id)
    return services.webhooks.list_delivery_attempts(record.webhook_id, RECENT_ATTEMPTS)
