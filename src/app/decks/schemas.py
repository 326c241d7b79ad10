"""Request and response bodies of the deck routes (the card that games show too is app.decks.card_schema)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, Strict

from app.core.examples import CARD_ALT, CARD_ID, IMAGE_URL
from app.core.request_fields import name_field, text_schema, whole_number
from app.core.schema_base import Request, Schema, doc
from app.decks.card_schema import Card
from dixit.limits import MAX_CUSTOM_DECK_CARDS, MAX_DESCRIPTION_LENGTH, MIN_CUSTOM_DECK_CARDS

# A JSON integer within its range: never a string or a boolean, a float only when it is a whole number.
# The range comes first so that it lands in the JSON schema as minimum and maximum.
CardCount = Annotated[
    int,
    Field(ge=MIN_CUSTOM_DECK_CARDS, le=MAX_CUSTOM_DECK_CARDS),
    Strict(),
    BeforeValidator(whole_number),
]

# One card's description as its owner gives it; the rules check the same (dixit.text.check_description).
Description = Annotated[
    str, Field(min_length=1, max_length=MAX_DESCRIPTION_LENGTH, json_schema_extra=text_schema())
]


class DeckOut(Schema):
    deck_id: str = doc("The deck's id", "base")
    name: str = doc("The deck's name", "Dixit")
    card_count: int = doc("How many cards it holds", 84)


class Decks(Schema):
    decks: list[DeckOut] = doc("Every deck", [{"deck_id": "base", "name": "Dixit", "card_count": 84}])


class DeckCards(Schema):
    deck_id: str = doc("The deck's id", "base")
    cards: list[Card] = doc(
        "Its cards with image links and descriptions",
        [{"card_id": CARD_ID, "image_url": IMAGE_URL, "alt": CARD_ALT}],
    )


class CreateDeck(Request):
    name: str = name_field("The deck's name", "Our holiday photos")
    card_count: CardCount = Field(
        examples=[24], description=f"{MIN_CUSTOM_DECK_CARDS} to {MAX_CUSTOM_DECK_CARDS} cards"
    )
    descriptions: list[Description | None] = Field(
        default_factory=list,
        max_length=MAX_CUSTOM_DECK_CARDS,
        examples=[["our dog asleep on the stairs", None]],
        description=(
            "Optional: what each card shows, in card order (the first for card 001), at most "
            f"{MAX_DESCRIPTION_LENGTH} characters each and no more entries than cards; served as the "
            "card's `alt`. A null or missing entry leaves its card undescribed"
        ),
    )


class UploadForm(Schema):
    """A presigned S3 POST: send `fields` and then the file (as `file`) as multipart/form-data to `url`."""

    card_id: str = doc("The card this form uploads", "d_5f2a9c-001")
    url: str = doc("Where to POST the form", "https://dixit-cards.s3.amazonaws.com/")
    fields: dict[str, str] = doc(
        "Form fields to send before the file", {"key": "custom/d_5f2a9c/d_5f2a9c-001"}
    )


class DeckCreated(Schema):
    deck_id: str = doc("The new deck's id", "d_5f2a9c")
    name: str = doc("Its name", "Our holiday photos")
    card_count: int = doc("How many cards it will hold", 24)
    uploads: list[UploadForm] = doc(
        "One form per card; JPEG, PNG or WebP up to 5 MB, with a Content-Type of image/…",
        [{"card_id": "d_5f2a9c-001", "url": "https://dixit-cards.s3.amazonaws.com/", "fields": {}}],
    )


class DeckCardStatus(Schema):
    card_id: str = doc("A card of the deck", "d_5f2a9c-001")
    status: Literal["pending", "ready", "rejected"] = doc(
        "pending: not uploaded or not checked yet; ready: playable; rejected: see reason", "ready"
    )
    reason: str | None = doc("Why the upload was rejected; null otherwise", None, default=None)
    image_url: str | None = doc("A short-lived link to its image once ready; null before", IMAGE_URL)
    alt: str = doc("Its description (see Card.alt)", "our dog asleep on the stairs")


class DeckDetail(Schema):
    deck_id: str = doc("The deck's id", "d_5f2a9c")
    name: str = doc("Its name", "Our holiday photos")
    card_count: int = doc("How many cards it holds", 24)
    official: bool = doc("Whether it is one of the game's own decks", False)
    ready: bool = doc("Whether every card is ready, so that games can use it", True)
    cards: list[DeckCardStatus] = doc(
        "Each card and its upload status",
        [{"card_id": "d_5f2a9c-001", "status": "ready", "image_url": IMAGE_URL, "alt": "our dog asleep"}],
    )
