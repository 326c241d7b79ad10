"""Every official card's description, written to ``src/app/decks/descriptions.json`` for the API.

The Lambda package cannot import this tool (nor Pillow), so the descriptions ship as data: the API reads
the file and serves each one as the card's ``alt``. ``python -m card_art describe`` rewrites it, and a
test checks that the committed file is exactly what the generator says today.
"""

from __future__ import annotations

import json
from pathlib import Path

from card_art.scene import describe
from dixit.cards import OFFICIAL_DECKS

DESCRIPTIONS_FILE = Path(__file__).resolve().parents[2] / "src" / "app" / "decks" / "descriptions.json"


def descriptions() -> dict[str, str]:
    return {card_id: describe(card_id) for deck in OFFICIAL_DECKS.values() for card_id in deck.card_ids()}


def descriptions_json() -> str:
    return json.dumps(descriptions(), indent=1, sort_keys=True, ensure_ascii=False) + "\n"
