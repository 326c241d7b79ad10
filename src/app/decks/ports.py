"""Custom decks' records, and what the decks feature needs from storage."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol


class CardStatus(StrEnum):
    PENDING = "pending"
    READY = "ready"
    REJECTED = "rejected"


@dataclass(frozen=True, slots=True)
class CardState:
    status: CardStatus
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class DeckRecord:
    deck_id: str
    owner_id: str
    name: str
    card_count: int
    created_at: str
    # card id -> its upload's state; a card nobody uploaded yet is pending.
    cards: dict[str, CardState] = field(default_factory=dict)

    def card_ids(self) -> list[str]:
        return [f"{self.deck_id}-{n:03d}" for n in range(1, self.card_count + 1)]

    def state_of(self, card_id: str) -> CardState:
        return self.cards.get(card_id, CardState(CardStatus.PENDING))

    @property
    def ready(self) -> bool:
        return all(self.state_of(c).status is CardStatus.READY for c in self.card_ids())


class DeckStore(Protocol):
    """Custom decks and each card's upload state."""

    def create_deck(self, deck: DeckRecord) -> None: ...

    def get_deck(self, deck_id: str) -> DeckRecord | None: ...

    def record_card(self, card_id: str, state: CardState) -> bool:
        """Record one card's upload outcome; False when its deck does not exist."""
        ...
