from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PIL import Image

from card_art.cli import main
from card_art.sheet import GAP
from dixit.cards import OFFICIAL_DECKS


def test_the_sheet_shows_every_card_of_the_deck_in_order_in_a_grid(
    tmp_path: Path, stub_cache: Callable[[str, tuple[int, int, int]], bytes]
) -> None:
    cards = OFFICIAL_DECKS["mirrors"].card_ids()
    for i, card_id in enumerate(cards):
        stub_cache(card_id, (i * 3, 255 - i * 3, 128))
    out = tmp_path / "docs" / "cards.png"

    assert (
        main(["sheet", "--deck", "mirrors", "--out", str(out), "--columns", "12", "--thumb-width", "40"]) == 0
    )

    with Image.open(out) as sheet:
        assert sheet.format == "PNG"
        assert sheet.size == (12 * (40 + GAP) + GAP, 7 * (60 + GAP) + GAP)
        rgb = sheet.convert("RGB")
        for i in (0, 13, 83):
            row, col = divmod(i, 12)
            centre = (GAP + col * (40 + GAP) + 20, GAP + row * (60 + GAP) + 30)
            assert rgb.getpixel(centre) == (i * 3, 255 - i * 3, 128)
