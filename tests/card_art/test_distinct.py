"""Measured distinctness: no two cards of a deck look alike to a perceptual hash."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import card_art
from card_art.perceptual_hash import HASH_BITS, NEAR_DUPLICATE_BITS, closest_pair, dhash, distance
from dixit.cards import OFFICIAL_DECKS

MAX_BYTES = 60 * 1024


def _check_deck(deck_id: str) -> None:
    hashes: dict[str, int] = {}
    for card_id in OFFICIAL_DECKS[deck_id].card_ids():
        data = card_art.render(card_id)
        assert len(data) <= MAX_BYTES, f"{card_id} is {len(data)} bytes"
        hashes[card_id] = dhash(data)
    nearest, a, b = closest_pair(hashes)
    assert nearest > NEAR_DUPLICATE_BITS, f"{a} and {b} differ in only {nearest} of {HASH_BITS} bits"


def test_no_two_cards_of_the_base_deck_are_near_duplicates() -> None:
    _check_deck("base")


@pytest.mark.slow
@pytest.mark.parametrize("deck_id", sorted(OFFICIAL_DECKS))
def test_no_two_cards_of_any_official_deck_are_near_duplicates(deck_id: str) -> None:
    _check_deck(deck_id)


def test_a_shrunk_and_re_encoded_copy_of_a_card_counts_as_a_near_duplicate() -> None:
    # The threshold has to catch a real duplicate, or passing it would say nothing.
    original = card_art.render("base-010")
    with Image.open(io.BytesIO(original)) as image:
        copy = io.BytesIO()
        image.convert("RGB").resize((200, 300)).save(copy, "JPEG", quality=60)
    assert distance(dhash(original), dhash(copy.getvalue())) <= NEAR_DUPLICATE_BITS


def test_a_mirrored_card_is_not_a_near_duplicate_of_itself() -> None:
    # And it must not be so loose that a different picture of the same kind passes as a copy.
    with Image.open(io.BytesIO(card_art.render("base-010"))) as image:
        mirrored = io.BytesIO()
        image.transpose(Image.Transpose.FLIP_LEFT_RIGHT).save(mirrored, "PNG")
    assert distance(dhash(card_art.render("base-010")), dhash(mirrored.getvalue())) > NEAR_DUPLICATE_BITS
