"""What Web Push needs: where browsers' subscriptions are kept, and a sender that reaches a push service.

The plain records and the two Protocols only. `app.aws.dynamodb.web_push` keeps the subscriptions in the
game table; `app.aws.web_push` encrypts (RFC 8291) and signs (VAPID, RFC 8292) with pywebpush and posts to
the push service. Both are built by `app.bootstrap`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Protocol

from dixit.lean_dataclass import dataclass

# The local stack's push receiver (tools/local_stack/push.py PUSH_PATH), on the gateway's own port: the
# one path on the stack's own ports a (local) subscription may point at.
LOCAL_RECEIVER_PATH = "/_local/push/"


@dataclass(frozen=True, slots=True)
class WebPushSubscription:
    """A browser's PushSubscription (its `toJSON()`), under an id the client chose."""

    subscription_id: str
    endpoint: str
    p256dh: str  # base64url, the browser's P-256 public key (65 bytes uncompressed)
    auth: str  # base64url, the 16-byte authentication secret
    expiration_time: int | None  # epoch milliseconds, as the browser gives it
    created_at: str
    # Its push service's failures in a row (timeouts, 5xx); past a few it is disabled (the player sees
    # it in their settings and subscribes again to re-enable it).
    failures: int = 0
    last_failure: str | None = None
    disabled_at: str | None = None


class PushResult(StrEnum):
    SENT = "sent"
    # 404 or 410 from the push service: the subscription is dead for good (RFC 8030 §7.3).
    GONE = "gone"
    # The endpoint resolves to an address we do not call (SSRF); never tried.
    REFUSED = "refused"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class PushAttempt:
    result: PushResult
    status: str = ""  # the HTTP status, or why no answer came (timeout, connection_error, …)


class WebPushStore(Protocol):
    """Each player's browser subscriptions (`PLAYER#<id>` / `WEBPUSH#<subscription_id>`)."""

    def list_web_push_subscriptions(self, player_id: str) -> list[WebPushSubscription]: ...

    def get_web_push_subscription(
        self, player_id: str, subscription_id: str
    ) -> WebPushSubscription | None: ...

    def put_web_push_subscription(self, player_id: str, subscription: WebPushSubscription) -> None: ...

    def delete_web_push_subscription(
        self, player_id: str, subscription_id: str, *, endpoint: str | None = None
    ) -> bool:
        """Remove one; with `endpoint`, only while it still points there (not replaced meanwhile)."""
        ...

    def record_web_push_result(
        self, player_id: str, subscription_id: str, *, ok: bool, status: str, at: str, disable_after: int
    ) -> WebPushSubscription | None:
        """Note a push's result: a success clears the failures, the `disable_after`-th failure in a row
        disables the subscription. None when it is gone."""
        ...


class WebPushSender(Protocol):
    """The VAPID key pair's public half, and one encrypted, signed POST to a push service."""

    def public_key(self) -> str | None:
        """The application server key (base64url P-256 point) browsers subscribe with; None: not set up."""
        ...

    def send(self, subscription: WebPushSubscription, payload: bytes, *, ttl: int, topic: str) -> PushAttempt:
        """One POST within the sender's whole deadline; never raises for the push service's answer."""
        ...
