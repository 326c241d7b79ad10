"""The descriptions the API serves are the generator's own: the committed file is regenerated, not edited."""

from __future__ import annotations

import json

from card_art.descriptions import DESCRIPTIONS_FILE, descriptions_json
from card_art.scene import describe
from dixit.cards import OFFICIAL_DECKS


def test_the_committed_descriptions_file_is_exactly_what_the_generator_writes() -> None:
    # On a mismatch: `.venv/bin/python -m card_art describe` and commit the file.
    assert DESCRIPTIONS_FILE.read_text() == descriptions_json()


def test_the_file_holds_a_description_for_every_official_card_and_nothing_else() -> None:
    stored = json.loads(DESCRIPTIONS_FILE.read_text())
    official = {card_id for deck in OFFICIAL_DECKS.values() for card_id in deck.card_ids()}
    assert set(stored) == official
    assert stored["odyssey-084"] == describe("odyssey-084")
