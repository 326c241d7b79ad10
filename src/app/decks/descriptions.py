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
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.decks.card_images import CardImages

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


def card_bodies(
    images: CardImages, card_ids: tuple[str, ...] | list[str], described: Mapping[str, str] | None = None
) -> list[dict[str, Any]]:
    """The cards as `Card`'s JSON, for an answer whose schema the resolver validates anyway.

    Here, beside the descriptions, and not in app.decks.presenters with the deck routes' models: every game
    view and move answer shows cards, and importing the deck routes' schemas for them cost a cold start.
    """
    urls = images.urls_for(card_ids)
    return [
        {"card_id": c, "image_url": url, "alt": alt_text(c, described)}
        for c, url in zip(card_ids, urls, strict=True)
    ]
