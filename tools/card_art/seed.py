"""Put card images into an S3 bucket, once: keys already there are left alone."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

from card_art.cache import cached
from card_art.render import CONTENT_TYPE

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client


@dataclass(frozen=True, slots=True)
class Seeded:
    uploaded: int
    skipped: int


def existing_keys(s3: S3Client, bucket: str, keys: list[str]) -> set[str]:
    """Which of ``keys`` the bucket holds: one listing under their common prefix, not a HEAD per key."""
    # A character-wise prefix on purpose: S3 prefixes are plain strings, not path components.
    prefix = os.path.commonprefix(keys)  # noqa: RUF071
    found: set[str] = set()
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
        found.update(item["Key"] for item in page.get("Contents", []) if "Key" in item)
    return found & set(keys)


def seed_bucket(
    s3: S3Client,
    bucket: str,
    card_ids: Iterable[str],
    key_for: Callable[[str], str],
    *,
    image: Callable[[str], bytes] = cached,
    workers: int = 8,
) -> Seeded:
    """Upload the image of every card whose key is missing; rerunning uploads nothing."""
    wanted = {key_for(card_id): card_id for card_id in card_ids}
    if not wanted:
        return Seeded(0, 0)
    present = existing_keys(s3, bucket, list(wanted))
    missing = [(key, card_id) for key, card_id in wanted.items() if key not in present]

    def put(item: tuple[str, str]) -> None:
        key, card_id = item
        s3.put_object(Bucket=bucket, Key=key, Body=image(card_id), ContentType=CONTENT_TYPE)

    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="seed-art") as pool:
        list(pool.map(put, missing))
    return Seeded(uploaded=len(missing), skipped=len(present))
