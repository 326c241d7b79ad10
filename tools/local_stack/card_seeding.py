"""Seed the twin's card bucket with generated art (tools/card_art), never real Dixit art.

Runs in a background thread after the stack is up, deck by deck in catalogue order, so the base deck
is playable within seconds while the rest is drawn; the disk cache makes every later start cheap.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import card_art
from app.decks.card_images import image_key
from card_art.cache import missing
from dixit.cards import OFFICIAL_DECKS

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

#: Puts one object: ``(bucket, key, body, content_type)``.
Putter = Callable[[str, str, bytes, str], None]


def official_card_ids() -> list[str]:
    """Every card of every official deck, in catalogue order (11 decks of 84)."""
    return [card_id for deck in OFFICIAL_DECKS.values() for card_id in deck.card_ids()]


def _by_deck(card_ids: list[str]) -> list[list[str]]:
    decks: dict[str, list[str]] = {}
    for card_id in card_ids:
        decks.setdefault(card_id.rsplit("-", 1)[0], []).append(card_id)
    return list(decks.values())


def seed_card_art(
    s3_client: S3Client,
    bucket: str,
    card_ids: Iterable[str] | None = None,
    *,
    workers: int = 8,
    stop: threading.Event | None = None,
    fast_put: Putter | None = None,
) -> int:
    """Put each card's generated image at ``app.decks.card_images.image_key``; returns how many were put.

    ``fast_put`` (e.g. straight into moto's in-process backend) is used when the first object it writes
    reads back with the right content type through ``s3_client``; otherwise images go through put_object.
    """
    stop = stop or threading.Event()
    ids = list(official_card_ids() if card_ids is None else card_ids)
    put: Putter | None = None
    if fast_put is not None and ids:
        try:
            fast_put(bucket, image_key(ids[0]), card_art.cached(ids[0]), card_art.CONTENT_TYPE)
            head = s3_client.head_object(Bucket=bucket, Key=image_key(ids[0]))
            put = fast_put if head["ContentType"] == card_art.CONTENT_TYPE else None
        except Exception:
            put = None

    def upload(bucket_name: str, key: str, body: bytes, content_type: str) -> None:
        s3_client.put_object(Bucket=bucket_name, Key=key, Body=body, ContentType=content_type)

    chosen: Putter = put or upload
    count = 0
    for deck_ids in _by_deck(ids):
        if stop.is_set() or not _draw_missing(deck_ids, stop):
            break

        def one(card_id: str) -> int:
            if stop.is_set():
                return 0
            chosen(bucket, image_key(card_id), card_art.cached(card_id), card_art.CONTENT_TYPE)
            return 1

        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="seed-art") as pool:
            count += sum(pool.map(one, deck_ids))
    return count


def _draw_missing(card_ids: list[str], stop: threading.Event) -> bool:
    """Fill the art cache for these cards in worker processes; False when stopped first.

    Drawing is CPU-bound Python: in a thread it would starve the gateway of the GIL. A spawned pool (a
    fork of this threaded process could inherit a held lock) is terminated at once when the stack stops.
    """
    todo = missing(card_ids)
    if not todo:
        return True
    pool = multiprocessing.get_context("spawn").Pool(processes=min(len(todo), os.cpu_count() or 1))
    try:
        return all(not stop.is_set() for _ in pool.imap_unordered(card_art.cached, todo, chunksize=4))
    finally:
        pool.terminate()
        pool.join()
