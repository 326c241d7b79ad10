"""Custom decks: a player's own cards, uploaded through presigned forms and checked by the ingest."""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from typing import Any

from app.core.errors import Conflict, Forbidden, NotFound
from app.core.records import PlayerRecord
from app.decks.card_images import CardImages
from app.decks.card_schema import CUSTOM_DECK_ID_PATTERN
from app.decks.ports import CardStatus, DeckRecord, DeckStore
from dixit.cards import OFFICIAL_DECKS, is_deck_id
from dixit.errors import InvalidMoveError
from dixit.lean_dataclass import dataclass
from dixit.limits import MAX_CUSTOM_DECK_CARDS, MIN_CUSTOM_DECK_CARDS
from dixit.text import check_description, check_name

MAX_UPLOAD_BYTES = 5 * 1024 * 1024
UPLOAD_FORM_SECONDS = 3_600


@dataclass(frozen=True, slots=True)
class NewDeck:
    deck: DeckRecord
    # card id -> presigned POST form {url, fields}
    uploads: dict[str, dict[str, Any]]


def new_deck_id() -> str:
    # A letter first, then hex: a deck id the rules accept, and never an official deck's name.
    return f"d{secrets.token_hex(8)}"


def create_deck(
    store: DeckStore,
    images: CardImages,
    owner: PlayerRecord,
    *,
    name: str,
    card_count: int,
    now: str,
    descriptions: Sequence[str | None] = (),
) -> NewDeck:
    clean_name = check_name(name)
    if not MIN_CUSTOM_DECK_CARDS <= card_count <= MAX_CUSTOM_DECK_CARDS:
        raise InvalidMoveError(
            "invalid_card_count",
            f"a custom deck has {MIN_CUSTOM_DECK_CARDS} to {MAX_CUSTOM_DECK_CARDS} cards, not {card_count}",
        )
    if len(descriptions) > card_count:
        raise InvalidMoveError(
            "too_many_descriptions", f"{len(descriptions)} descriptions for a deck of {card_count} cards"
        )
    deck_id = new_deck_id()
    described = {
        f"{deck_id}-{n:03d}": check_description(text)
        for n, text in enumerate(descriptions, start=1)
        if text is not None
    }
    deck = DeckRecord(
        deck_id, owner.player_id, clean_name, card_count, created_at=now, descriptions=described
    )
    store.create_deck(deck)
    return with_upload_forms(deck, images)


def with_upload_forms(deck: DeckRecord, images: CardImages) -> NewDeck:
    """The deck with freshly signed upload forms (also for a retried request: old forms expire)."""
    uploads = {
        card_id: images.upload_form(card_id, max_bytes=MAX_UPLOAD_BYTES, expires_in=UPLOAD_FORM_SECONDS)
        for card_id in deck.card_ids()
    }
    return NewDeck(deck, uploads)


def owned_deck(store: DeckStore, viewer: PlayerRecord | None, deck_id: str) -> DeckRecord:
    """A custom deck, for its owner only: nobody else sees its cards before a game deals them."""
    deck = store.get_deck(deck_id) if is_deck_id(deck_id) and deck_id not in OFFICIAL_DECKS else None
    if deck is None:
        raise NotFound("deck_not_found", f"there is no deck {deck_id!r}")
    if viewer is None or deck.owner_id != viewer.player_id:
        raise Forbidden("not_deck_owner", f"deck {deck_id!r} belongs to another player")
    return deck


def custom_decks_for_game(
    store: DeckStore, host: PlayerRecord, decks: Sequence[str] | None
) -> dict[str, int]:
    """The card counts of the host's custom decks among `decks`: each must be the host's own and ready.

    A custom deck's id that names no deck is 404 `deck_not_found`, as for GET /decks/{deck_id}; other ids
    that are not official are left to the rules (`unknown_deck`).
    """
    custom: dict[str, int] = {}
    for deck_id in decks or ():
        if not isinstance(deck_id, str) or deck_id in OFFICIAL_DECKS or not is_deck_id(deck_id):
            continue
        deck = store.get_deck(deck_id)
        if deck is None:
            if re.fullmatch(CUSTOM_DECK_ID_PATTERN, deck_id):
                raise NotFound("deck_not_found", f"there is no deck {deck_id!r}")
            continue
        if deck.owner_id != host.player_id:
            raise Forbidden("not_deck_owner", f"deck {deck_id!r} belongs to another player")
        if not deck.ready:
            missing = sum(1 for c in deck.card_ids() if deck.state_of(c).status is not CardStatus.READY)
            raise Conflict(
                "deck_not_ready",
                f"deck {deck_id!r} is not ready: {missing} of {deck.card_count} cards are not in yet",
            )
        custom[deck_id] = deck.card_count
    return custom
