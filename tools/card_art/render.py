"""A card's image as bytes: the composed scene saved as lossy WebP.

WebP keeps a card near 10 KB with smooth skies. PNG was tried first: a full-colour PNG of a scene is
about 100 KB, a 128-colour one shows hard bands in every glow, and a dithered one sits right at 60 KB.
"""

from __future__ import annotations

import io

from PIL import Image

from card_art.scene import compose
from dixit.cards import deck_of
from dixit.errors import InvalidMoveError

CONTENT_TYPE = "image/webp"
EXTENSION = "webp"
QUALITY = 88


def render(card_id: str) -> bytes:
    """The image of ``card_id``; the same id always gives the same bytes (with the pinned Pillow)."""
    try:
        deck_of(card_id)
    except InvalidMoveError as error:
        raise ValueError(f"{card_id!r} is not a card id like 'base-001'") from error
    return encode(compose(card_id))


def encode(image: Image.Image) -> bytes:
    out = io.BytesIO()
    # No EXIF/ICC/XMP is written, so nothing time- or host-dependent gets into the bytes.
    image.save(out, "WEBP", quality=QUALITY, method=4)
    return out.getvalue()
