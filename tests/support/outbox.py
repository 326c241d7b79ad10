"""The outbox's queue in tests: delivered at once, in-process, as the queue's function would deliver it.

Use-case and API tests assert what players receive; with `deliver_at_once`, each message enqueued on the
in-memory queue goes straight through the outbox's sender (app.notify.outbox_delivery), once. A message
that asks to be retried stays in the queue's `pending`, for a test to look at.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from app import bootstrap
from app.notify.outbox import OutboxMessage
from app.notify.outbox_delivery import Finished, deliver
from app.notify.preferences import Channel
from app.services import Services
from tests.fakes.outbox import MemoryNotificationQueue


def deliver_at_once(queue: MemoryNotificationQueue, services_of: Callable[[], Services]) -> None:
    def consume(channel: Channel, body: str) -> bool:
        result = deliver(services_of(), OutboxMessage.from_json(body), attempt=1)
        return isinstance(result, Finished)

    queue.consumer = consume


def drain(queue: MemoryNotificationQueue, services: Services, *, attempt: int = 1) -> list[str]:
    """Hand every pending message to the sender once; the outcome of each ("retry" when kept)."""
    outcomes: list[str] = []
    for channel, body in queue.take():
        result = deliver(services, OutboxMessage.from_json(body), attempt=attempt)
        if isinstance(result, Finished):
            outcomes.append(result.outcome)
        else:
            queue.pending.append((channel, body))
            outcomes.append("retry")
    return outcomes


def queue_in_process(env: pytest.MonkeyPatch) -> MemoryNotificationQueue:
    """From now on (until `env` is undone) the adapters app.bootstrap builds queue notifications in memory
    and deliver them at once, through whatever `bootstrap.services` is then (a test's mailer included)."""
    queue = MemoryNotificationQueue()
    built = bootstrap.services

    def services(*args: Any, **kwargs: Any) -> Services:
        return replace(built(*args, **kwargs), notification_queue=queue)

    env.setattr(bootstrap, "services", services)
    deliver_at_once(queue, lambda: bootstrap.services())
    return queue
