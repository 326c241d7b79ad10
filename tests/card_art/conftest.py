"""Card art tests: every test gets its own empty cache directory."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

import card_art


@pytest.fixture(autouse=True)
def art_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "art-cache"
    monkeypatch.setenv("DIXIT_CARD_ART_CACHE", str(root))
    return root


@pytest.fixture
def stub_cache(art_cache: Path) -> Callable[[str, tuple[int, int, int]], bytes]:
    """Put a plain one-colour card into the cache, so a test of the plumbing need not draw a scene."""

    def put(card_id: str, colour: tuple[int, int, int]) -> bytes:
        out = io.BytesIO()
        Image.new("RGB", (40, 60), colour).save(out, "WEBP", lossless=True)
        path = card_art.cache_dir() / f"{card_id}.{card_art.EXTENSION}"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(out.getvalue())
        return out.getvalue()

    return put
