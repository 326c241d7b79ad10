"""A card's alt text: the generator's description for an official card, the owner's or a neutral one else."""

from __future__ import annotations

from collections.abc import Collection

import pytest

from app.core.errors import StoreUnavailable
from app.core.records import GameRecord, Visibility
from app.decks.descriptions import alt_text, official_descriptions
from app.decks.ports import DeckRecord
from app.games.card_descriptions import card_descriptions
from dixit.engine import new_game
from dixit.errors import InvalidMoveError
from dixit.settings import Settings
from dixit.text import check_description
from tests.fakes.decks import MemoryDeckStore
from tests.support.services import memory_services


def test_an_official_card_is_described_by_the_generator_whatever_else_is_given() -> None:
    assert alt_text("base-017") == official_descriptions()["base-017"]
    assert "cat" in alt_text("base-017")
    assert alt_text("base-017", {"d0123456789abcdef-001": "ours"}) == official_descriptions()["base-017"]


def test_a_custom_card_has_its_owners_description_or_a_neutral_one() -> None:
    described = {"d0123456789abcdef-001": "our dog asleep on the stairs"}
    assert alt_text("d0123456789abcdef-001", described) == "our dog asleep on the stairs"
    assert alt_text("d0123456789abcdef-012", described) == "card 12 of deck d0123456789abcdef"
    assert alt_text("d0123456789abcdef-003") == "card 3 of deck d0123456789abcdef"


def test_a_description_is_trimmed_and_held_to_a_clues_rules() -> None:
    assert check_description("  a kite over the dunes ") == "a kite over the dunes"
    for text, code in (
        ("  ", "blank_description"),
        (None, "blank_description"),
        ("x" * 201, "description_too_long"),
        ("a \u202eturned\u202c dog", "bidi_control"),
        ("tab\there", "control_character"),
    ):
        with pytest.raises(InvalidMoveError) as raised:
            check_description(text)
        assert raised.value.code == code


# A game view's custom descriptions (app.games.card_descriptions)

DECK = "d0123456789abcdef"


def _game(decks: list[str], custom: dict[str, int] | None = None) -> GameRecord:
    settings = Settings.build("classic", decks, 3, custom_decks=custom)
    state = new_game("g_0123456789abcdef", host_id="p0", host_name="P0", settings=settings, seed=1)
    return GameRecord(state, Visibility.PRIVATE, "Zx8_q1", "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z")


def _deck_store() -> MemoryDeckStore:
    store = MemoryDeckStore()
    described = {f"{DECK}-002": "a kite"}
    store.create_deck(DeckRecord(DECK, "p0", "Ours", 32, created_at="2026-01-01", descriptions=described))
    return store


def test_a_game_of_official_decks_only_asks_no_deck_store_for_descriptions() -> None:
    decks = _deck_store()
    assert card_descriptions(memory_services(decks=decks), _game(["base", "odyssey"])) == {}
    assert decks.description_reads == 0


def test_a_game_with_a_custom_deck_has_its_owners_descriptions_in_one_read() -> None:
    decks = _deck_store()
    got = card_descriptions(memory_services(decks=decks), _game([DECK, "base"], {DECK: 32}))
    assert got == {f"{DECK}-002": "a kite"}
    assert decks.description_reads == 1


def test_when_the_descriptions_cannot_be_read_the_view_goes_out_with_neutral_alt_texts() -> None:
    class Down(MemoryDeckStore):
        def descriptions_of(self, deck_ids: Collection[str]) -> dict[str, str]:
            raise StoreUnavailable()

    record = _game([DECK], {DECK: 32})
    assert card_descriptions(memory_services(decks=Down()), record) == {}
