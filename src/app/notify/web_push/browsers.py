"""Web Push for the web client: storing browsers' subscriptions, and pushing notifications to them.

A subscription is what `PushManager.subscribe` gives the browser (`{endpoint, keys: {p256dh, auth},
expirationTime}`), stored under an id the client chose (`PUT /players/me/web-push/{id}`). The endpoint is
a URL of the browser's push service that we will POST to, so it is vetted as a webhook's URL is
(`app.webhooks.ssrf`): https, and never a private, loopback or metadata address (loopback http only where
`webhook_allow_loopback_http` is set: the local stack). The sender vets it again at each push.

The outbox's web push queue sends `your_turn`, `reminder`, `game_over` and `rematch` one browser at a time
(`WebPush.push_one`, each POST within `notify_send_timeout_seconds` in all). A subscription the push
service answers 404 or 410 is removed; one that fails `web_push_disable_after_failures` times in a row
(timeouts, 5xx) is disabled, as its owner's settings show, until they subscribe again.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Callable
from dataclasses import field
from datetime import datetime
from urllib.parse import urlsplit

from app.core.clock import utc_now
from app.core.errors import Conflict, InvalidInput, NotConfigured, NotFound
from app.core.records import PlayerRecord
from app.core.telemetry import count, logger
from app.notify.messages import Kind, Notification
from app.notify.ports import WebPushing
from app.notify.web_push.ports import (
    LOCAL_RECEIVER_PATH,
    PushResult,
    WebPushSender,
    WebPushStore,
    WebPushSubscription,
)
from app.webhooks.ssrf import UnsafeUrl, vet
from dixit.lean_dataclass import dataclass

MAX_SUBSCRIPTIONS = 10
MAX_ENDPOINT_LENGTH = 2048
P256DH_BYTES = 65  # an uncompressed P-256 point: 0x04, then x and y
AUTH_BYTES = 16
# What the notification says, per kind; `url` opens the game at the move the player owes.
TITLES = {
    Kind.YOUR_TURN: "Your turn in Dixit",
    Kind.REMINDER: "A Dixit game is waiting for you",
    Kind.GAME_OVER: "Your Dixit game is over",
    Kind.REMATCH: "A Dixit rematch is waiting for you",
}
# How long a push service keeps a message for a browser that is offline (RFC 8030 TTL): a turn or a
# reminder is stale after a day, a result still worth showing for a week, a rematch's invitation for
# three days.
TTL_SECONDS = {
    Kind.YOUR_TURN: 86_400,
    Kind.REMINDER: 43_200,
    Kind.GAME_OVER: 7 * 86_400,
    Kind.REMATCH: 3 * 86_400,
}
WEB_PUSH_KINDS = frozenset(TITLES)


def decode_key(value: str, length: int, name: str) -> bytes:
    """A base64url key of exactly `length` bytes (padding optional, as browsers omit it)."""
    if not value or len(value) > 200 or not all(c.isalnum() or c in "-_=" for c in value):
        raise InvalidInput("invalid_push_keys", f"keys.{name} must be base64url")
    try:
        raw = base64.urlsafe_b64decode(value.rstrip("=") + "=" * (-len(value.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        raise InvalidInput("invalid_push_keys", f"keys.{name} must be base64url") from None
    if len(raw) != length:
        raise InvalidInput("invalid_push_keys", f"keys.{name} must decode to {length} bytes, not {len(raw)}")
    return raw


def check_endpoint(
    endpoint: str, *, allow_loopback_http: bool, refused_loopback_ports: frozenset[int] = frozenset()
) -> None:
    """The push service's URL must be one we may call (raises InvalidInput `invalid_push_endpoint`).

    Locally, never the twin's or the gateway's own ports (a push to /moto-api/reset wiped the stack),
    except the local push receiver's own path on the gateway (LOCAL_RECEIVER_PATH).
    """
    if len(endpoint) > MAX_ENDPOINT_LENGTH:
        raise InvalidInput(
            "invalid_push_endpoint", f"endpoints are limited to {MAX_ENDPOINT_LENGTH} characters"
        )
    path = urlsplit(endpoint).path
    if allow_loopback_http and path.startswith(LOCAL_RECEIVER_PATH) and ".." not in path:
        refused_loopback_ports = frozenset()
    try:
        vet(endpoint, allow_loopback_http=allow_loopback_http, refused_loopback_ports=refused_loopback_ports)
    except UnsafeUrl as unsafe:
        raise InvalidInput("invalid_push_endpoint", unsafe.detail) from None


@dataclass(slots=True)
class WebPush:
    store: WebPushStore
    sender: WebPushSender
    allow_loopback_http: bool = False
    clock: Callable[[], datetime] = field(default=lambda: utc_now())
    # The local stack's own ports (its twin's, its gateway's): never a browser's push service.
    refused_loopback_ports: frozenset[int] = frozenset()
    disable_after: int = 5
    # What the push says about its game (app.notify.headline); None: the kind's plain text.
    describe: Callable[[Notification], str | None] = field(default=lambda notification: None)

    @classmethod
    def of(
        cls, services: WebPushing, describe: Callable[[Notification], str | None] | None = None
    ) -> WebPush:
        settings = services.settings
        return cls(
            services.web_push_subscriptions,
            services.web_push,
            allow_loopback_http=settings.webhook_allow_loopback_http,
            clock=services.clock,
            refused_loopback_ports=settings.refused_loopback_ports,
            disable_after=settings.web_push_disable_after_failures,
            describe=describe or (lambda notification: None),
        )

    # The subscriptions routes

    def public_key(self) -> str:
        key = self.sender.public_key()
        if key is None:
            raise NotConfigured("web_push_not_configured", "this deployment has no VAPID key for Web Push")
        return key

    def subscribe(
        self,
        player: PlayerRecord,
        subscription_id: str,
        *,
        endpoint: str,
        p256dh: str,
        auth: str,
        expiration_time: int | None,
        now: datetime,
    ) -> tuple[WebPushSubscription, bool]:
        """Store (or replace) the browser's subscription; True when the id is new."""
        self.public_key()  # a subscription no key could ever sign for is refused up front
        point = decode_key(p256dh, P256DH_BYTES, "p256dh")
        if point[0] != 0x04:
            raise InvalidInput("invalid_push_keys", "keys.p256dh must be an uncompressed P-256 point")
        decode_key(auth, AUTH_BYTES, "auth")
        check_endpoint(
            endpoint,
            allow_loopback_http=self.allow_loopback_http,
            refused_loopback_ports=self.refused_loopback_ports,
        )
        mine = self.store.list_web_push_subscriptions(player.player_id)
        existing = next((s for s in mine if s.subscription_id == subscription_id), None)
        if existing is None and len(mine) >= MAX_SUBSCRIPTIONS:
            raise Conflict(
                "too_many_web_push_subscriptions",
                f"a player may keep at most {MAX_SUBSCRIPTIONS} browser subscriptions",
            )
        created_at = existing.created_at if existing is not None else now.isoformat(timespec="seconds")
        stored = WebPushSubscription(subscription_id, endpoint, p256dh, auth, expiration_time, created_at)
        self.store.put_web_push_subscription(player.player_id, stored)
        for other in mine:
            # The same browser subscribed again under another id: one push per message, not two.
            if other.endpoint == endpoint and other.subscription_id != subscription_id:
                self.store.delete_web_push_subscription(
                    player.player_id, other.subscription_id, endpoint=endpoint
                )
        return stored, existing is None

    def subscriptions(self, player: PlayerRecord) -> list[WebPushSubscription]:
        return self.store.list_web_push_subscriptions(player.player_id)

    def unsubscribe(self, player: PlayerRecord, subscription_id: str) -> None:
        if not self.store.delete_web_push_subscription(player.player_id, subscription_id):
            raise NotFound(
                "web_push_subscription_not_found", f"you have no web push subscription {subscription_id}"
            )

    def reaches(self, notification: Notification) -> bool:
        """Whether a browser of the player would take `notification` (one subscribed, not disabled)."""
        if notification.kind not in WEB_PUSH_KINDS:
            return False
        mine = self.store.list_web_push_subscriptions(notification.player_id)
        return any(s.disabled_at is None for s in mine)

    # Sending (app.notify.outbox_delivery: one message per browser)

    def push_one(self, notification: Notification, subscription_id: str, dedupe_id: str) -> str:
        """Push `notification` to one browser of its player; the outbox's outcome ("sent", "skipped",
        "failed" or "unknown"). A browser that keeps failing is disabled (`disable_after` in a row)."""
        if notification.kind not in WEB_PUSH_KINDS:
            return "skipped"
        player_id = notification.player_id
        subscription = self.store.get_web_push_subscription(player_id, subscription_id)
        if subscription is None or subscription.disabled_at is not None:
            return "skipped"
        expires = subscription.expiration_time
        if expires is not None and expires <= int(self.clock().timestamp() * 1000):
            # The browser said when it would stop accepting pushes: past that, it is gone.
            self.store.delete_web_push_subscription(
                player_id, subscription_id, endpoint=subscription.endpoint
            )
            count("WebPushSubscriptionsExpired")
            return "skipped"
        attempt = self.sender.send(
            subscription,
            payload_of(notification, dedupe_id, self.describe(notification)),
            ttl=TTL_SECONDS[notification.kind],
            topic=topic_of(notification),
        )
        if attempt.result is PushResult.SENT:
            count("WebPushSent")
            if subscription.failures:
                self._record(player_id, subscription_id, ok=True, status=attempt.status)
            return "sent"
        if attempt.result is PushResult.GONE:
            logger.info(
                "removing a web push subscription its push service no longer knows",
                extra={"subscription_id": subscription_id, "status": attempt.status},
            )
            self.store.delete_web_push_subscription(
                player_id, subscription_id, endpoint=subscription.endpoint
            )
            count("WebPushSubscriptionsRemoved")
            return "skipped"
        if attempt.result is PushResult.REFUSED:
            count("WebPushRefused")
            return "skipped"
        logger.warning(
            "a web push was not delivered",
            extra={"subscription_id": subscription_id, "status": attempt.status},
        )
        count("WebPushFailed")
        recorded = self._record(player_id, subscription_id, ok=False, status=attempt.status)
        if recorded is not None and recorded.disabled_at is not None:
            count("WebPushSubscriptionsDisabled")
            return "skipped"  # told in the player's settings; subscribing again re-enables it
        # No answer within the deadline: the push service may have taken it (the topic folds a repeat).
        return "unknown" if attempt.status == "timeout" else "failed"

    def _record(
        self, player_id: str, subscription_id: str, *, ok: bool, status: str
    ) -> WebPushSubscription | None:
        return self.store.record_web_push_result(
            player_id,
            subscription_id,
            ok=ok,
            status=status,
            at=self.clock().isoformat(timespec="seconds"),
            disable_after=self.disable_after,
        )


def payload_of(notification: Notification, dedupe_id: str | None = None, text: str | None = None) -> bytes:
    """What the service worker shows: a title, a body naming the game (and the move and clue it owes)
    and the game's page (no hand or card)."""
    body = {
        "title": TITLES[notification.kind],
        "body": text or notification.text,
        "url": notification.web_path,
        "kind": notification.kind.value,
        "game_id": notification.game_id,
        # The service worker's notification tag: one notification per game, the newer replacing the older
        # (and a message pushed twice, a retried send, shows once).
        "tag": f"dixit-game-{notification.game_id}",
        "dedupe_id": dedupe_id or notification.dedupe_id,
    }
    return json.dumps(body, separators=(",", ":"), sort_keys=True).encode("utf-8")


def topic_of(notification: Notification) -> str:
    """RFC 8030 Topic: a newer message for this game and player replaces one still waiting for the browser.

    At most 32 base64url characters, and opaque: the push service learns no game or player id.
    """
    digest = hashlib.sha256(f"{notification.game_id}:{notification.player_id}".encode()).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode("ascii")
