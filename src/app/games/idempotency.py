"""Idempotency-Key: the answer is stored in the same transaction as the write it answers.

So a keyed request applies at most once whatever fails: either the write and its answer are both in
the table (a retry gets the answer back) or neither is (a retry applies the request). There is no
"in progress" state to get stuck in. The answer is kept slim: the JSON body without image links,
compressed (a record stays under 1 KB), and a replay puts fresh links back, so it never hands out an
expired one.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from typing import Any

from app.core.errors import IdempotencyKeyReused
from app.core.records import StoredAnswer
from app.decks.card_images import CardImages
from dixit.lean_dataclass import dataclass

MAX_KEY_LENGTH = 128


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class RequestKey:
    """Who sent which key to which route, and with what body."""

    key_id: str
    fingerprint: str

    @classmethod
    def of(cls, *, player_id: str, key: str, route: str, body: Any) -> RequestKey:
        return cls(_digest([player_id, key, route]), _digest(body))

    def answer(self, body: dict[str, Any], *, now: int, ttl_seconds: int) -> StoredAnswer:
        return StoredAnswer(self.key_id, self.fingerprint, slim(body), now + ttl_seconds)

    def replay(self, stored: StoredAnswer, images: CardImages) -> dict[str, Any]:
        if stored.fingerprint != self.fingerprint:
            raise IdempotencyKeyReused()
        body: dict[str, Any] = with_fresh_links(json.loads(zlib.decompress(stored.payload)), images)
        return body


def _without_links(value: Any) -> Any:
    if isinstance(value, dict):
        # The key stays (as null) to mark where a fresh link goes back on replay.
        return {k: None if k == "image_url" else _without_links(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_links(v) for v in value]
    return value


def slim(body: dict[str, Any]) -> bytes:
    text = json.dumps(_without_links(body), separators=(",", ":"), ensure_ascii=False)
    return zlib.compress(text.encode(), 9)


def with_fresh_links(value: Any, images: CardImages) -> Any:
    """Every card shown with an image (`card_id` and `image_url`) gets a newly signed link."""
    if isinstance(value, dict):
        fresh = {k: with_fresh_links(v, images) for k, v in value.items()}
        if isinstance(fresh.get("card_id"), str) and "image_url" in fresh:
            fresh["image_url"] = images.url_for(fresh["card_id"])
        return fresh
    if isinstance(value, list):
        return [with_fresh_links(v, images) for v in value]
    return value
