"""The disk cache that keeps generation off `make run`'s path: each card is drawn once per machine.

Cards live under ``~/.cache/dixit-card-art/<version>/`` (or ``$XDG_CACHE_HOME``, or
``$DIXIT_CARD_ART_CACHE`` which replaces the whole root). The version names both the generator and the
Pillow that encodes, so a change to either starts a fresh directory instead of serving stale bytes.
Writes go to a temporary file renamed into place, so a reader never sees half a PNG even when several
processes fill the cache at once.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import PIL

from card_art.render import EXTENSION, render

GENERATOR_VERSION = "2"
CACHE_VERSION = f"v{GENERATOR_VERSION}-pillow{PIL.__version__}"


def cache_root() -> Path:
    override = os.environ.get("DIXIT_CARD_ART_CACHE")
    if override:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "dixit-card-art"


def cache_dir() -> Path:
    return cache_root() / CACHE_VERSION


def cached(card_id: str) -> bytes:
    """The image of ``card_id`` from the cache, rendering and storing it on a miss."""
    path = cache_dir() / f"{card_id}.{EXTENSION}"
    try:
        return path.read_bytes()
    except FileNotFoundError:
        pass
    data = render(card_id)  # validates the id before it becomes part of a path
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{card_id}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return data


def missing(card_ids: Iterable[str]) -> list[str]:
    """The cards not in the cache yet."""
    folder = cache_dir()
    return [card_id for card_id in card_ids if not (folder / f"{card_id}.{EXTENSION}").exists()]


def warm(card_ids: Iterable[str], workers: int | None = None) -> int:
    """Draw every missing card into the cache, in ``workers`` processes; returns how many were drawn.

    Drawing is CPU-bound Python, so processes rather than threads. Meant for a background start-up step
    (the local stack) or before a big upload: 924 official cards take about 70 CPU seconds.
    """
    todo = missing(card_ids)
    workers = workers or os.cpu_count() or 1
    if workers == 1 or len(todo) < 2:
        for card_id in todo:
            cached(card_id)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            list(pool.map(cached, todo, chunksize=8))
    return len(todo)
