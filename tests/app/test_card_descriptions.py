"""A card's alt text: the generator's description for an official card, the owner's or a neutral one else."""

from __future__ import annotations

import pytest

from app.decks.descriptions import alt_text, official_descriptions
from dixit.errors import InvalidMoveError
from dixit.text import check_description


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
