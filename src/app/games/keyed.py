"""Idempotency-Key for requests that write no game item (a nudge, a new deck).

Their answer cannot ride in a game transaction, so it is stored right after the work. A retry with the
same key gets the first answer back. Should the store fail between the work and its answer, a retry
does the work again: for a nudge that is refused by the hourly limit (429), for a deck it makes a
second, empty deck. Both are honest and harmless, unlike a doubled move.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.games.idempotency import RequestKey
from app.games.ports import Answering


def answer_once(
    services: Answering, key: RequestKey | None, compute: Callable[[], dict[str, Any]]
) -> dict[str, Any]:
    """The body `compute` makes, or (with a key seen before) the body it made the first time."""
    if key is None:
        return compute()
    now = services.now_epoch()
    stored = services.games.get_answer(key.key_id, now=now)
    if stored is not None:
        return key.replay(stored, services.images)
    body = compute()
    ttl = services.settings.idempotency_ttl_seconds
    if not services.games.put_answer(key.answer(body, now=now, ttl_seconds=ttl), now=now):
        # The same key, sent twice at once: the first answer stored is the one every retry gets.
        stored = services.games.get_answer(key.key_id, now=now)
        if stored is not None:
            return key.replay(stored, services.images)
    return body
