"""Generated card art for the official decks: evocative scenes drawn from each card id, never Libellud's.

A developer tool (Pillow is a dev dependency); Lambda code never imports it. The local stack and the
``seed-art`` command use:

- ``render(card_id) -> bytes``: draw the card now (about 0.08 s of CPU);
- ``cached(card_id) -> bytes``: the same bytes through the disk cache (see ``card_art.cache``);
- ``warm(card_ids)``: fill the cache in worker processes, e.g. from a background thread at start-up;
- ``CONTENT_TYPE`` / ``EXTENSION``: what the bytes are;
- ``seed_bucket(s3, bucket, card_ids, key_for)``: upload what is missing, skip keys already there.
"""

from card_art.cache import CACHE_VERSION, GENERATOR_VERSION, cache_dir, cached, warm
from card_art.render import CONTENT_TYPE, EXTENSION, render
from card_art.seed import Seeded, seed_bucket

__all__ = [
    "CACHE_VERSION",
    "CONTENT_TYPE",
    "EXTENSION",
    "GENERATOR_VERSION",
    "Seeded",
    "cache_dir",
    "cached",
    "render",
    "seed_bucket",
    "warm",
]
