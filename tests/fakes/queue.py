"""The webhook delivery queue in memory: what was enqueued, retried later and dead-lettered."""

from __future__ import annotations

from collections.abc import Sequence


class MemoryWebhookQueue:
    """Implements app.webhooks.ports.WebhookQueue."""

    def __init__(self) -> None:
        self.queue_url = "memory://webhooks"
        self.dlq_url = "memory://webhooks-dlq"
        self.sent: list[str] = []
        self.refuse: set[str] = set()  # bodies SQS refuses to take
        self.delayed: list[tuple[str, int]] = []  # (receipt handle, delay seconds)
        self.dead: list[tuple[str, str]] = []  # (body, reason)

    def send(self, bodies: Sequence[str]) -> list[str]:
        self.sent += [body for body in bodies if body not in self.refuse]
        return [body for body in bodies if body in self.refuse]

    def retry_later(self, receipt_handle: str, delay_seconds: int) -> None:
        self.delayed.append((receipt_handle, delay_seconds))

    def dead_letter(self, body: str, reason: str) -> None:
        self.dead.append((body, reason))
