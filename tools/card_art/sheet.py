"""A contact sheet: a deck's cards side by side in one PNG, to see the whole deck at a glance."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

from PIL import Image

from card_art.cache import cached

GAP = 6
BACKGROUND = (24, 22, 30)


def contact_sheet(
    card_ids: Sequence[str],
    *,
    columns: int = 12,
    thumb_width: int = 90,
    image: Callable[[str], bytes] = cached,
) -> bytes:
    thumb = (thumb_width, thumb_width * 3 // 2)
    rows = -(-len(card_ids) // columns)
    sheet = Image.new(
        "RGB",
        (columns * (thumb[0] + GAP) + GAP, rows * (thumb[1] + GAP) + GAP),
        BACKGROUND,
    )
    for i, card_id in enumerate(card_ids):
        with Image.open(io.BytesIO(image(card_id))) as card:
            small = card.convert("RGB").resize(thumb, Image.Resampling.LANCZOS)
        row, col = divmod(i, columns)
        sheet.paste(small, (GAP + col * (thumb[0] + GAP), GAP + row * (thumb[1] + GAP)))
    out = io.BytesIO()
    # 256 colours keep the committed sheet near 200 KB (a full-colour PNG is about 1 MB).
    reduced = sheet.convert(
        "P", palette=Image.Palette.ADAPTIVE, colors=256, dither=Image.Dither.FLOYDSTEINBERG
    )
    reduced.save(out, "PNG", optimize=True)
    return out.getvalue()
