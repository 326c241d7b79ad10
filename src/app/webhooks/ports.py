"""What webhooks need: storage for a player's subscriptions, their health and recent attempts, and the
delivery queue (with its dead-letter queue) that carries each event to each webhook; and the few ports
the subscription use cases read (the composition's Services has them all, and so fits each).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from app.core.clock import Clock, WallClock
from app.webhooks.records import DeliveryAttempt, WebhookRecord

if TYPE_CHECKING:
    from app.core.settings import AppSettings

MAX_VISIBILITY_SECONDS = 43_200  # SQS's ceiling for one message's visibility timeout


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


class WebhookQueue(Protocol):
    """The delivery queue: messages in, a message hidden for a while (the backoff), and the dead letters."""

    @property
    def dlq_url(self) -> str:
        """Where dead letters go; empty when there is no dead-letter queue."""
        ...

    def send(self, bodies: Sequence[str]) -> list[str]:
        """Enqueue every body; returns the bodies the queue refused (the caller decides whether to retry)."""
        ...

    def retry_later(self, receipt_handle: str, delay_seconds: int) -> None:
        """Hide a message for `delay_seconds` (at most MAX_VISIBILITY_SECONDS): the queue redelivers it."""
        ...

    def dead_letter(self, body: str, reason: str) -> None: ...


class Webhooks(Protocol):
    """A player's webhooks and their recent attempts."""

    webhooks: WebhookStore


class Subscribing(Webhooks, Clock, Protocol):
    """A new webhook: its URL vetted by the settings' rules, stamped with the clock."""

    settings: AppSettings


class Enqueueing(Webhooks, Clock, Protocol):
    """Enqueueing events' deliveries: each recipient's webhooks, and the time stamped on the messages."""


class Posting(Webhooks, WallClock, Protocol):
    """One delivery attempt: the webhook and its health, the settings' limits, and the clock."""

    settings: AppSettings
