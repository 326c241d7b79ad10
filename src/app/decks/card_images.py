"""Card images: where each card's image lives, links to read them, forms to upload a deck's cards.

A link stays the same for a whole time window so clients can cache the image: it is signed at the
window's start with an expiry that covers the window plus the TTL. The signing and the objects are the
ObjectStore port's (app.decks.ports; S3 in app.aws.s3).
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from dixit.cards import OFFICIAL_DECKS, deck_of

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from app.decks.ports import ObjectStore

# Card art is WebP: a scene at 400x600 stays under 60 KB where a full-colour PNG would not; the ingest
# re-encodes custom cards to WebP too.
IMAGE_EXTENSION = "webp"
CONTENT_TYPE = "image/webp"
UPLOAD_PREFIX = "uploads/"
# SigV4 refuses an X-Amz-Expires above seven days.
MAX_EXPIRES_SECONDS = 604_800


@lru_cache(maxsize=4_096)  # every link asks, a dozen per answer
def image_key(card_id: str) -> str:
    """Where a card's image lives: derived from the card alone, so it never says who holds or played it."""
    return f"cards/{deck_of(card_id)}/{card_id}.{IMAGE_EXTENSION}"


def upload_key(card_id: str) -> str:
    """Where a custom card's raw upload lands; the ingest turns it into image_key(card_id)."""
    return f"{UPLOAD_PREFIX}{deck_of(card_id)}/{card_id}"


def card_of_upload(key: str) -> str | None:
    """The card an upload key belongs to, or None for any other key."""
    if not key.startswith(UPLOAD_PREFIX):
        return None
    parts = key[len(UPLOAD_PREFIX) :].split("/")
    if len(parts) != 2:
        return None
    deck_id, card_id = parts
    if deck_id in OFFICIAL_DECKS:
        # Official art is never uploaded: an ingest of such a key would replace or delete it.
        return None
    try:
        return card_id if deck_of(card_id) == deck_id else None
    except ValueError:
        return None


class CardImages:
    """Image links for cards: stable for a time window (the store memoizes them in a warm Lambda).

    With `base_url`, official decks' art comes from there (a CDN in front of the bucket) unsigned; custom
    decks are always presigned. With no bucket configured every link is None (and no store is needed).
    """

    def __init__(
        self,
        bucket: str,
        ttl_seconds: int,
        store: ObjectStore | None = None,
        *,
        window_seconds: int = 3_600,
        base_url: str = "",
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.bucket = bucket
        self.ttl_seconds = ttl_seconds
        self.window_seconds = window_seconds
        self.base_url = base_url.rstrip("/")
        self._store = store
        self._clock = clock or (lambda: datetime.now(UTC).timestamp())

    @property
    def store(self) -> ObjectStore:
        if self._store is None:
            raise RuntimeError(f"card images of bucket {self.bucket!r} were given no object store")
        return self._store

    def url_for(self, card_id: str) -> str | None:
        (url,) = self.urls_for((card_id,))
        return url

    def urls_for(self, card_ids: Sequence[str]) -> list[str | None]:
        """`url_for` each card, in order, signing (or looking up) every link of an answer at once."""
        urls: list[str | None] = [None] * len(card_ids)
        signed: list[int] = []
        for i, card_id in enumerate(card_ids):
            if self.base_url and deck_of(card_id) in OFFICIAL_DECKS:
                urls[i] = f"{self.base_url}/{image_key(card_id)}"
            elif self.bucket:
                signed.append(i)
        if signed:
            window_start = int(self._clock()) // self.window_seconds * self.window_seconds
            links = self.store.links(
                self.bucket,
                [image_key(card_ids[i]) for i in signed],
                signed_at=window_start,
                expires_in=min(self.window_seconds + self.ttl_seconds, MAX_EXPIRES_SECONDS),
            )
            for i, link in zip(signed, links, strict=True):
                urls[i] = link
        return urls

    def upload_form(self, card_id: str, *, max_bytes: int, expires_in: int) -> dict[str, Any]:
        """A presigned POST form for one custom card: JPEG, PNG or WebP only, at most `max_bytes`."""
        return self.store.upload_form(
            self.bucket,
            upload_key(card_id),
            max_bytes=max_bytes,
            content_type_prefix="image/",
            expires_in=expires_in,
        )

    def read_upload(self, key: str, max_bytes: int) -> bytes | None:
        """An upload's first `max_bytes` + 1 bytes (enough to tell it is too large); None if gone."""
        return self.store.read(self.bucket, key, limit=max_bytes + 1)

    def store_image(self, card_id: str, data: bytes) -> None:
        self.store.put(self.bucket, image_key(card_id), data, content_type=CONTENT_TYPE)

    def delete(self, key: str) -> None:
        self.store.delete(self.bucket, key)

    def delete_image(self, card_id: str) -> None:
        self.delete(image_key(card_id))
