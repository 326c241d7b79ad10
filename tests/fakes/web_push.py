"""Web Push in memory: the subscriptions store, and a sender that records pushes and plays push services."""

from __future__ import annotations

import json
import threading
from dataclasses import replace

from app.notify.web_push.ports import PushAttempt, PushResult, WebPushSubscription

#: A valid application server key (a P-256 point); the double never signs with it.
PUBLIC_KEY = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"


class MemoryWebPushStore:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscriptions: dict[str, dict[str, WebPushSubscription]] = {}

    def erase_player(self, player_id: str) -> int:
        with self._lock:
            return len(self._subscriptions.pop(player_id, {}))

    def list_web_push_subscriptions(self, player_id: str) -> list[WebPushSubscription]:
        mine = self._subscriptions.get(player_id, {})
        return [mine[key] for key in sorted(mine)]  # the table's sort-key order

    def get_web_push_subscription(self, player_id: str, subscription_id: str) -> WebPushSubscription | None:
        return self._subscriptions.get(player_id, {}).get(subscription_id)

    def put_web_push_subscription(self, player_id: str, subscription: WebPushSubscription) -> None:
        with self._lock:
            self._subscriptions.setdefault(player_id, {})[subscription.subscription_id] = subscription

    def delete_web_push_subscription(
        self, player_id: str, subscription_id: str, *, endpoint: str | None = None
    ) -> bool:
        with self._lock:
            found = self._subscriptions.get(player_id, {}).get(subscription_id)
            if found is None or (endpoint is not None and found.endpoint != endpoint):
                return False
            del self._subscriptions[player_id][subscription_id]
            return True

    def record_web_push_result(
        self, player_id: str, subscription_id: str, *, ok: bool, status: str, at: str, disable_after: int
    ) -> WebPushSubscription | None:
        with self._lock:
            found = self._subscriptions.get(player_id, {}).get(subscription_id)
            if found is None:
                return None
            if ok:
                updated = replace(found, failures=0, last_failure=None)
            else:
                failures = found.failures + 1
                disabled = found.disabled_at or (at if failures >= disable_after else None)
                updated = replace(
                    found, failures=failures, last_failure=f"{at} {status}", disabled_at=disabled
                )
            self._subscriptions[player_id][subscription_id] = updated
            return updated


class RecordingWebPushSender:
    """Records each push (endpoint, decoded payload, ttl, topic); `answers` maps an endpoint to what its
    push service does instead of taking the message (GONE, FAILED, …). `public` None: no VAPID key."""

    def __init__(self, public: str | None = PUBLIC_KEY) -> None:
        self.public = public
        self.sent: list[tuple[str, dict[str, object], int, str]] = []
        self.answers: dict[str, PushAttempt] = {}

    def public_key(self) -> str | None:
        return self.public

    def send(self, subscription: WebPushSubscription, payload: bytes, *, ttl: int, topic: str) -> PushAttempt:
        answer = self.answers.get(subscription.endpoint)
        if answer is not None:
            return answer
        self.sent.append((subscription.endpoint, json.loads(payload), ttl, topic))
        return PushAttempt(PushResult.SENT, "201")
