"""A difference hash (dHash) to measure how alike two cards look, and the threshold the decks must pass.

dHash shrinks the image to 17 x 16 grey pixels and keeps one bit per neighbouring pair (is the left one
brighter?). Resizing or re-encoding an image moves a few bits; two different pictures differ in many.
Two cards whose 256-bit hashes differ in at most ``NEAR_DUPLICATE_BITS`` bits count as near-duplicates.
The hash is 256 bits rather than the common 64 because every card shares a layout (sky above, land
below) that a 9 x 8 thumbnail reduces to nearly the same bits.
"""

from __future__ import annotations

import io
from collections.abc import Mapping

from PIL import Image

_SIDE = 16
HASH_BITS = _SIDE * _SIDE
#: At or below this Hamming distance two images count as the same picture: 10 % of the bits, the usual
#: bound for dHash (10 of 64). A resized, re-encoded copy of a card sits far below it.
NEAR_DUPLICATE_BITS = 26


def dhash(png: bytes) -> int:
    with Image.open(io.BytesIO(png)) as image:
        grey = image.convert("L").resize((_SIDE + 1, _SIDE), Image.Resampling.LANCZOS)
        pixels = grey.tobytes()
    bits = 0
    for row in range(_SIDE):
        for col in range(_SIDE):
            left, right = pixels[row * (_SIDE + 1) + col], pixels[row * (_SIDE + 1) + col + 1]
            bits = (bits << 1) | (left > right)
    return bits


def distance(a: int, b: int) -> int:
    return (a ^ b).bit_count()


def closest_pair(hashes: Mapping[str, int]) -> tuple[int, str, str]:
    """The smallest distance between any two of ``hashes``, and which two cards it is between."""
    items = sorted(hashes.items())
    best = (HASH_BITS + 1, "", "")
    for i, (id_a, hash_a) in enumerate(items):
        for id_b, hash_b in items[i + 1 :]:
            d = distance(hash_a, hash_b)
            if d < best[0]:
                best = (d, id_a, id_b)
    return best
