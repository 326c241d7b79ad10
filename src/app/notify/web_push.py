"""Web Push for the web client: storing browsers' subscriptions, and pushing notifications to them.

A subscription is what `PushManager.subscribe` gives the browser (`{endpoint, keys: {p256dh, auth},
expirationTime}`), stored under an id the client chose (`PUT /players/me/web-push/{id}`). The endpoint is
a URL of the browser's push service that we will POST to, so it is vetted as a webhook's URL is
(`app.webhooks.ssrf`): https, and never a private, loopback or metadata address (loopback http only where
`webhook_allow_loopback_http` is set: the local stack). The sender vets it again at each push.

Delivery calls `WebPush.push` for `your_turn`, `reminder`, `game_over` and `rematch`. A subscription the push
service answers 404 or 410 is removed; every other failure is counted (`WebPushFailed`).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from app.core.clock import utc_now
from app.core.errors import Conflict, InvalidInput, NotConfigured, NotFound
from app.core.records import PlayerRecord
from app.core.telemetry import count, logger
from app.notify.messages import Kind, Notification
from app.notify.ports import WebPushing
from app.notify.web_push_ports import (
    PushAttempt,
    PushResult,
    WebPushSender,
    WebPushStore,
    WebPushSubscription,
)
from app.webhooks.ssrf import UnsafeUrl, vet

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


def check_endpoint(endpoint: str, *, allow_loopback_http: bool) -> None:
    """The push service's URL must be one we may call (raises InvalidInput `invalid_push_endpoint`)."""
    if len(endpoint) > MAX_ENDPOINT_LENGTH:
        raise InvalidInput(
            "invalid_push_endpoint", f"endpoints are limited to {MAX_ENDPOINT_LENGTH} characters"
        )
    try:
        vet(endpoint, allow_loopback_http=allow_loopback_http)
    except UnsafeUrl as unsafe:
        raise InvalidInput("invalid_push_endpoint", unsafe.detail) from None


@dataclass(slots=True)
class WebPush:
    store: WebPushStore
    sender: WebPushSender
    allow_loopback_http: bool = False
    clock: Callable[[], datetime] = field(default=lambda: utc_now())

    @classmethod
    def of(cls, services: WebPushing) -> WebPush:
        return cls(
            services.web_push_subscriptions,
            services.web_push,
            allow_loopback_http=services.settings.webhook_allow_loopback_http,
            clock=services.clock,
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
        check_endpoint(endpoint, allow_loopback_http=self.allow_loopback_http)
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

    # Sending

    def send(self, notification: Notification) -> None:
        """The `app.notify.senders.Sender` of `Channel.WEB_PUSH`: raises when no browser took it."""
        outcomes = self._push(notification)
        if outcomes and PushResult.SENT not in outcomes and set(outcomes) - {PushResult.GONE}:
            raise WebPushUndelivered(f"no browser took the message ({', '.join(o.value for o in outcomes)})")

    def reaches(self, notification: Notification) -> bool:
        if notification.kind not in WEB_PUSH_KINDS:
            return False
        return bool(self.store.list_web_push_subscriptions(notification.player_id))

    def push(self, notification: Notification) -> int:
        """To every browser the player subscribed; how many took it."""
        return self._push(notification).count(PushResult.SENT)

    def _push(self, notification: Notification) -> list[PushResult]:
        """Each subscription's result (none for kinds other than WEB_PUSH_KINDS)."""
        if notification.kind not in WEB_PUSH_KINDS:
            return []
        subscriptions = self.store.list_web_push_subscriptions(notification.player_id)
        payload = payload_of(notification) if subscriptions else b""
        results: list[PushResult] = []
        now_ms = int(self.clock().timestamp() * 1000)
        for subscription in subscriptions:
            expires = subscription.expiration_time
            if expires is not None and expires <= now_ms:
                # The browser said when it would stop accepting pushes: past that, it is gone.
                self.store.delete_web_push_subscription(
                    notification.player_id, subscription.subscription_id, endpoint=subscription.endpoint
                )
                count("WebPushSubscriptionsExpired")
                results.append(PushResult.GONE)
                continue
            try:
                attempt = self.sender.send(
                    subscription, payload, ttl=TTL_SECONDS[notification.kind], topic=topic_of(notification)
                )
            except Exception:
                # One browser's failure must not cost the player's other channels (or retry the batch).
                logger.exception("a web push failed", extra={"subscription_id": subscription.subscription_id})
                attempt = PushAttempt(PushResult.FAILED, "error")
            results.append(attempt.result)
            if attempt.result is PushResult.SENT:
                count("WebPushSent")
            elif attempt.result is PushResult.GONE:
                logger.info(
                    "removing a web push subscription its push service no longer knows",
                    extra={"subscription_id": subscription.subscription_id, "status": attempt.status},
                )
                self.store.delete_web_push_subscription(
                    notification.player_id, subscription.subscription_id, endpoint=subscription.endpoint
                )
                count("WebPushSubscriptionsRemoved")
            else:
                logger.warning(
                    "a web push was not delivered",
                    extra={
                        "subscription_id": subscription.subscription_id,
                        "result": attempt.result.value,
                        "status": attempt.status,
                    },
                )
                count("WebPushRefused" if attempt.result is PushResult.REFUSED else "WebPushFailed")
        return results


class WebPushUndelivered(RuntimeError):
    """Every browser of the player failed to take a message (none was merely gone)."""


def payload_of(notification: Notification) -> bytes:
    """What the service worker shows: a title, a body and the game's page (no hand, clue or card)."""
    body = {
        "title": TITLES[notification.kind],
        "body": notification.text,
        "url": notification.web_path,
        "kind": notification.kind.value,
        "game_id": notification.game_id,
        # The service worker's notification tag: a message pushed twice (a retried send) shows once.
        "tag": notification.dedupe_id,
    }
    return json.dumps(body, separators=(",", ":"), sort_keys=True).encode("utf-8")


def topic_of(notification: Notification) -> str:
    """RFC 8030 Topic: a newer message for this game and player replaces one still waiting for the browser.

    At most 32 base64url characters, and opaque: the push service learns no game or player id.
    """
    digest = hashlib.sha256(f"{notification.game_id}:{notification.player_id}".encode()).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode("ascii")
