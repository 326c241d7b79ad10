"""`DeckStore` in memory: one record per custom deck, each card's upload state on it."""

from __future__ import annotations

import threading
from collections.abc import Collection
from dataclasses import replace

from app.core.errors import VersionConflict
from app.decks.ports import CardState, DeckRecord


class MemoryDeckStore:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._decks: dict[str, DeckRecord] = {}
        self.description_reads = 0  # calls of descriptions_of, each one read of the table there

    def create_deck(self, deck: DeckRecord) -> None:
        with self._lock:
            if deck.deck_id in self._decks:
                # The table's put is conditional on a new id too (its refusal is a ClientError there).
                raise VersionConflict(None)
            self._decks[deck.deck_id] = replace(deck, cards={})  # the table starts every deck empty

    def get_deck(self, deck_id: str) -> DeckRecord | None:
        return self._decks.get(deck_id)

    def record_card(self, card_id: str, state: CardState) -> bool:
        deck_id = card_id.rsplit("-", 1)[0]
        with self._lock:
            deck = self._decks.get(deck_id)
            if deck is None:
                return False
            self._decks[deck_id] = replace(deck, cards={**deck.cards, card_id: state})
            return True

    def descriptions_of(self, deck_ids: Collection[str]) -> dict[str, str]:
        self.description_reads += 1
        described: dict[str, str] = {}
        for deck_id in deck_ids:
            deck = self._decks.get(deck_id)
            if deck is not None:
                described.update(deck.descriptions)
        return described
