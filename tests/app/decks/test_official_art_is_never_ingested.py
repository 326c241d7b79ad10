"""An upload key naming an official deck's card is no card upload: the ingest never touches official art
(#25: 11)."""

from __future__ import annotations

import pytest

from app.decks.card_images import CardImages, card_of_upload
from handlers.card_ingest import ingest


class UntouchableStore:
    """An object store no call may reach."""

    def __getattr__(self, name: str) -> object:
        raise AssertionError(f"the ingest called the store's {name} for an official card's key")


@pytest.mark.parametrize("key", ["uploads/base/base-001", "uploads/odyssey/odyssey-042"])
def test_an_upload_key_naming_an_official_card_is_no_card_upload(key: str) -> None:
    assert card_of_upload(key) is None


def test_the_ingest_ignores_an_official_cards_key_without_touching_the_bucket() -> None:
    images = CardImages("cards", 3_600, UntouchableStore())  # type: ignore[arg-type]
    assert ingest(images, UntouchableStore(), "uploads/base/base-001") is None  # type: ignore[arg-type]


def test_a_custom_decks_upload_key_still_names_its_card() -> None:
    assert card_of_upload("uploads/d_5f2a9c/d_5f2a9c-001") == "d_5f2a9c-001"
