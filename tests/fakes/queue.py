"""The webhook delivery queue in memory: what was enqueued, retried later and dead-lettered."""

from __future__ import annotations

from collections.abc import Sequence

from app.webhooks.queue import WebhookQueue


class MemoryWebhookQueue(WebhookQueue):
    def __init__(self) -> None:
        super().__init__("memory://webhooks", "memory://webhooks-dlq")
        self.sent: list[str] = []
        self.refuse: set[str] = set()  # bodies SQS refuses to take
        self.delayed: list[tuple[str, int]] = []  # (receipt handle, delay seconds)
        self.dead: list[tuple[str, str]] = []  # (body, reason)

    @property
    def client(self) -> object:  # type: ignore[override]
        raise AssertionError("MemoryWebhookQueue never reaches SQS")

    def send(self, bodies: Sequence[str]) -> list[str]:
        self.sent += [body for body in bodies if body not in self.refuse]
        return [body for body in bodies if body in self.refuse]

    def retry_later(self, receipt_handle: str, delay_seconds: int) -> None:
        self.delayed.append((receipt_handle, delay_seconds))

    def dead_letter(self, body: str, reason: str) -> None:
        self.dead.append((body, reason))
