"""The perceptual hash's threshold: a copy of a card counts as one, a different picture does not."""

from __future__ import annotations

import io

from PIL import Image

import card_art
from card_art.perceptual_hash import NEAR_DUPLICATE_BITS, dhash, distance

# Every official deck's nearest pair is checked against NEAR_DUPLICATE_BITS in test_families.


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
