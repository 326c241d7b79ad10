"""What a game's answers and requests share with the deck routes: the card a player is shown, and the
form of a custom deck's id.

Apart from app.decks.schemas and app.decks.custom so that a game's schemas (every move and view) do not
import the deck routes' models and the deck use cases with them: they cost a tenth of a cold start.
"""

from __future__ import annotations

from app.core.examples import CARD_ALT, CARD_ID, IMAGE_URL
from app.core.schema_base import Schema, doc

# What app.decks.custom's new_deck_id makes; the published schema states it too (app.games.schemas).
CUSTOM_DECK_ID_PATTERN = r"^d[0-9a-f]{16}$"


class Card(Schema):
    card_id: str = doc("The card's id, `<deck>-<nnn>`", CARD_ID)
    image_url: str | None = doc(
        "Presigned image link (expires); null when images are not configured", IMAGE_URL
    )
    alt: str = doc(
        "What the card shows, for a screen reader: an official card's description, a custom card's "
        "as its owner gave it, else a neutral 'card N of deck <id>'",
        CARD_ALT,
    )
