"""Card ids and the catalogue of official decks.

A card id is `<deck>-<nnn>`, numbered from 001; a game's settings say how many cards each of its decks
has (84 for an official deck), so custom decks deal like any other.
"""

from __future__ import annotations

import re

from dixit.errors import InvalidMoveError
from dixit.lean_dataclass import dataclass

CARDS_PER_OFFICIAL_DECK = 84

_CARD_ID = re.compile(r"^(?P<deck>[a-z0-9](?:[a-z0-9_]{0,30}[a-z0-9])?)-(?P<number>\d{3})$")
_DECK_ID = re.compile(r"^[a-z0-9](?:[a-z0-9_]{0,30}[a-z0-9])?$")


@dataclass(frozen=True, slots=True)
class Deck:
    deck_id: str
    name: str
    card_count: int

    def card_ids(self) -> list[str]:
        return card_ids_of(self.deck_id, self.card_count)


OFFICIAL_DECKS: dict[str, Deck] = {
    deck.deck_id: deck
    for deck in (
        Deck("base", "Dixit", CARDS_PER_OFFICIAL_DECK),
        Deck("quest", "Quest", CARDS_PER_OFFICIAL_DECK),
        Deck("journey", "Journey", CARDS_PER_OFFICIAL_DECK),
        Deck("origins", "Origins", CARDS_PER_OFFICIAL_DECK),
        Deck("daydreams", "Daydreams", CARDS_PER_OFFICIAL_DECK),
        Deck("memories", "Memories", CARDS_PER_OFFICIAL_DECK),
        Deck("revelations", "Revelations", CARDS_PER_OFFICIAL_DECK),
        Deck("harmonies", "Harmonies", CARDS_PER_OFFICIAL_DECK),
        Deck("anniversary", "Anniversary", CARDS_PER_OFFICIAL_DECK),
        Deck("mirrors", "Mirrors", CARDS_PER_OFFICIAL_DECK),
        Deck("odyssey", "Odyssey", CARDS_PER_OFFICIAL_DECK),
    )
}


def deck_of(card_id: str) -> str:
    match = _CARD_ID.fullmatch(card_id)
    if match is None:
        raise InvalidMoveError("invalid_card_id", f"{card_id!r} is not a card id like 'base-001'")
    return match.group("deck")


def check_card_ids(card_ids: object) -> tuple[str, ...]:
    """Validate a client-supplied list of card ids: well formed and pairwise distinct."""
    if not isinstance(card_ids, list | tuple) or not all(isinstance(c, str) for c in card_ids):
        raise InvalidMoveError("invalid_card_ids", "card_ids must be a list of card id strings")
    for card_id in card_ids:
        deck_of(card_id)
    if len(set(card_ids)) != len(card_ids):
        raise InvalidMoveError("duplicate_cards", "the same card appears more than once")
    return tuple(card_ids)


def is_deck_id(value: str) -> bool:
    return _DECK_ID.fullmatch(value) is not None


def card_ids_of(deck_id: str, card_count: int) -> list[str]:
    return [f"{deck_id}-{n:03d}" for n in range(1, card_count + 1)]
