"""Each card's description, served as its `alt`: what a player who cannot see the picture is told.

Official cards' descriptions come from the art generator, which wrote them into ``descriptions.json``
next to this module (``python -m card_art describe``; Lambda cannot import the generator). A custom card
has the description its owner gave at upload, or else a neutral "card 7 of deck <id>".
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

DESCRIPTIONS_FILE = Path(__file__).with_name("descriptions.json")


@lru_cache(maxsize=1)
def official_descriptions() -> Mapping[str, str]:
    """Read once per process, on the first card shown (about 80 KB)."""
    loaded: dict[str, str] = json.loads(DESCRIPTIONS_FILE.read_text(encoding="utf-8"))
    return loaded


def alt_text(card_id: str, described: Mapping[str, str] | None = None) -> str:
    """The card's description: its owner's (``described``), the generator's, or a neutral fallback."""
    if described and card_id in described:
        return described[card_id]
    official = official_descriptions().get(card_id)
    if official is not None:
        return official
    deck_id, _, number = card_id.rpartition("-")
    return f"card {int(number) if number.isdigit() else number} of deck {deck_id}"
