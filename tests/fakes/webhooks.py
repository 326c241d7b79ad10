"""`WebhookStore` in memory: a player's subscriptions (only a player on the `MemoryTable` may register
one, as the table's transaction counts them on the profile) and each webhook's delivery attempts."""

from __future__ import annotations

from dataclasses import replace

from app.webhooks.records import DeliveryAttempt, WebhookRecord

from .table import MemoryTable


class MemoryWebhookStore:
    def __init__(self, table: MemoryTable | None = None) -> None:
        self.table = table if table is not None else MemoryTable()
        self._lock = self.table.lock
        self._webhooks: dict[tuple[str, str], WebhookRecord] = {}  # (player id, webhook id)
        self._attempts: dict[str, list[DeliveryAttempt]] = {}

    def create_webhook(self, record: WebhookRecord, *, max_per_player: int) -> bool:
        with self._lock:
            if record.player_id not in self.table.players:
                return False
            if sum(1 for owner, _ in self._webhooks if owner == record.player_id) >= max_per_player:
                return False
            self._webhooks[(record.player_id, record.webhook_id)] = record
            return True

    def list_webhooks(self, player_id: str) -> list[WebhookRecord]:
        return [w for (owner, _), w in sorted(self._webhooks.items()) if owner == player_id]

    def get_webhook(self, player_id: str, webhook_id: str) -> WebhookRecord | None:
        return self._webhooks.get((player_id, webhook_id))

    def delete_webhook(self, player_id: str, webhook_id: str) -> bool:
        with self._lock:
            return self._webhooks.pop((player_id, webhook_id), None) is not None

    def erase_player(self, player_id: str) -> int:
        """Every webhook of the player (their delivery attempts expire on their own, as by TTL)."""
        with self._lock:
            mine = [key for key in self._webhooks if key[0] == player_id]
            for key in mine:
                del self._webhooks[key]
            return len(mine)

    def set_webhook_secret(self, player_id: str, webhook_id: str, secret: str) -> bool:
        with self._lock:
            found = self._webhooks.get((player_id, webhook_id))
            if found is None:
                return False
            self._webhooks[(player_id, webhook_id)] = replace(found, secret=secret)
            return True

    def record_webhook_result(
        self, player_id: str, webhook_id: str, *, ok: bool, status: str, at: str, disable_after: int
    ) -> WebhookRecord | None:
        with self._lock:
            found = self._webhooks.get((player_id, webhook_id))
            if found is None:
                return None
            failures = 0 if ok else found.consecutive_failures + 1
            updated = replace(found, consecutive_failures=failures, last_delivery_at=at, last_status=status)
            if not ok and not found.disabled and failures >= disable_after:
                updated = replace(updated, disabled=True, disabled_at=at)
            self._webhooks[(player_id, webhook_id)] = updated
            return updated

    def put_delivery_attempt(self, attempt: DeliveryAttempt, *, expires_at: int) -> None:
        with self._lock:
            self._attempts.setdefault(attempt.webhook_id, []).append(attempt)

    def list_delivery_attempts(self, webhook_id: str, limit: int) -> list[DeliveryAttempt]:
        attempts = self._attempts.get(webhook_id, [])
        newest = sorted(attempts, key=lambda a: (a.attempted_at, a.delivery_id, a.attempt), reverse=True)
        return newest[:limit]
