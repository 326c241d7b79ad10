"""What webhooks need from storage: a player's subscriptions, their health and recent attempts."""

from __future__ import annotations

from typing import Protocol

from app.webhooks.records import DeliveryAttempt, WebhookRecord


class WebhookStore(Protocol):
    def create_webhook(self, record: WebhookRecord, *, max_per_player: int) -> bool:
        """Add a webhook unless the player already has `max_per_player` (False then)."""
        ...

    def list_webhooks(self, player_id: str) -> list[WebhookRecord]: ...

    def get_webhook(self, player_id: str, webhook_id: str) -> WebhookRecord | None: ...

    def delete_webhook(self, player_id: str, webhook_id: str) -> bool:
        """Remove a webhook and free its slot; False when there was no such webhook."""
        ...

    def set_webhook_secret(self, player_id: str, webhook_id: str, secret: str) -> bool: ...

    def record_webhook_result(
        self, player_id: str, webhook_id: str, *, ok: bool, status: str, at: str, disable_after: int
    ) -> WebhookRecord | None:
        """Note a delivery's result; disable after `disable_after` failures in a row (None if deleted)."""
        ...

    def put_delivery_attempt(self, attempt: DeliveryAttempt, *, expires_at: int) -> None: ...

    def list_delivery_attempts(self, webhook_id: str, limit: int) -> list[DeliveryAttempt]:
        """Newest first."""
        ...
