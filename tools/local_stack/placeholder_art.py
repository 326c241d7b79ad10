"""Placeholder card art: small deterministic PNGs drawn from the card id, never real Dixit art.

Each card gets two colours, a stripe or checker pattern and its number as a row of bits along the
bottom, all derived from ``sha256(card_id)``; the PNG is written with ``zlib`` and ``struct`` only.
"""

from __future__ import annotations

import hashlib
import struct
import threading
import zlib
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from app.card_images import image_key
from dixit.cards import OFFICIAL_DECKS

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

WIDTH = 120
HEIGHT = 180
_BORDER = 4
_BITS = 7  # card numbers go up to 127 in the bit strip
_BIT_SIZE = 10

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    )


def encode_png(width: int, height: int, rows: Iterable[bytes]) -> bytes:
    """An 8-bit RGB PNG from ``height`` rows of ``width * 3`` bytes each."""
    raw = b"".join(b"\x00" + row for row in rows)  # filter type 0 (None) on every scanline
    if len(raw) != height * (width * 3 + 1):
        raise ValueError("rows do not match the image size")
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        PNG_SIGNATURE
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(raw, 9))
        + _chunk(b"IEND", b"")
    )


def card_png(card_id: str, width: int = WIDTH, height: int = HEIGHT) -> bytes:
    """The placeholder image of ``card_id``: the same id always gives the same bytes."""
    digest = hashlib.sha256(card_id.encode()).digest()
    background = bytes(digest[0:3])
    foreground = bytes(channel ^ 0xFF for channel in digest[0:3])  # the complement: always visible
    border = bytes(channel // 4 for channel in digest[0:3])
    stripe = 6 + digest[6] % 18
    pattern = digest[7] % 3  # 0 horizontal stripes, 1 vertical stripes, 2 checker
    number = int(card_id.rsplit("-", 1)[-1]) if card_id.rsplit("-", 1)[-1].isdigit() else digest[8]

    inner = width - 2 * _BORDER
    edge = border * _BORDER

    def row(colours: Callable[[int], bytes]) -> bytes:
        return edge + b"".join(colours(x) for x in range(inner)) + edge

    def plain(colour: bytes) -> bytes:
        return edge + colour * inner + edge

    def stripes(band: int) -> Callable[[int], bytes]:
        return lambda x: foreground if (x // stripe + band) % 2 else background

    def bit(x: int) -> bytes:
        position = x // _BIT_SIZE
        lit = position < _BITS and (number >> (_BITS - 1 - position)) & 1 and x % _BIT_SIZE
        return foreground if lit else border

    vertical = [row(stripes(0)), row(stripes(1))]
    bits_row = row(bit)
    rows: list[bytes] = []
    strip_top = height - _BORDER - _BIT_SIZE - 2
    for y in range(height):
        if y < _BORDER or y >= height - _BORDER:
            rows.append(border * width)
        elif y >= strip_top:
            rows.append(bits_row if y < height - _BORDER - 2 else plain(border))
        elif pattern == 0:
            rows.append(plain(foreground if (y // stripe) % 2 else background))
        elif pattern == 1:
            rows.append(vertical[0])
        else:
            rows.append(vertical[(y // stripe) % 2])
    return encode_png(width, height, rows)


def official_card_ids() -> list[str]:
    """Every card of every official deck, in catalogue order (11 decks of 84)."""
    return [card_id for deck in OFFICIAL_DECKS.values() for card_id in deck.card_ids()]


#: Puts one object: ``(bucket, key, body, content_type)``.
Putter = Callable[[str, str, bytes, str], None]


def seed_card_art(
    s3_client: S3Client,
    bucket: str,
    card_ids: Iterable[str] | None = None,
    *,
    workers: int = 8,
    stop: threading.Event | None = None,
    fast_put: Putter | None = None,
) -> int:
    """Put a placeholder PNG for each card at ``cards/<deck>/<card_id>.png``; returns how many were put.

    ``fast_put`` (e.g. straight into moto's in-process backend) is used when the first object it writes
    reads back as ``image/png`` through ``s3_client``; otherwise every image goes through ``put_object``.
    """
    stop = stop or threading.Event()
    ids = list(official_card_ids() if card_ids is None else card_ids)

    if fast_put is not None and ids:
        try:
            fast_put(bucket, image_key(ids[0]), card_png(ids[0]), "image/png")
            fast_ok = (
                s3_client.head_object(Bucket=bucket, Key=image_key(ids[0]))["ContentType"] == "image/png"
            )
        except Exception:
            fast_ok = False
        if fast_ok:
            count = 1
            for card_id in ids[1:]:
                if stop.is_set():
                    break
                fast_put(bucket, image_key(card_id), card_png(card_id), "image/png")
                count += 1
            return count

    def put(card_id: str) -> int:
        if stop.is_set():
            return 0
        s3_client.put_object(
            Bucket=bucket,
            Key=image_key(card_id),
            Body=card_png(card_id),
            ContentType="image/png",
        )
        return 1

    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="seed-art") as pool:
        return sum(pool.map(put, ids))
