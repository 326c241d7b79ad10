"""Custom decks' records, and what the decks feature needs from storage: deck items and card images."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import field
from enum import StrEnum
from typing import Any, Protocol

from dixit.lean_dataclass import dataclass


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
    # card id -> what its owner says it shows (its alt text); an undescribed card is not in it.
    descriptions: dict[str, str] = field(default_factory=dict)

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

    def descriptions_of(self, deck_ids: Collection[str]) -> dict[str, str]:
        """Card id -> its owner's description, for every described card of these decks: one read at most.

        A deck's descriptions are written once, with the deck (create_deck), and never changed (the
        ingest records only each card's status), so an adapter may keep them for as long as it lives.
        """
        ...


class ObjectStore(Protocol):
    """The bucket of card images: links to read an object, forms to upload one, and the objects."""

    def link(self, bucket: str, key: str, *, signed_at: int, expires_in: int) -> str:
        """A GET link to the object, valid from `signed_at` (epoch seconds) for `expires_in` seconds.

        The same arguments give the same link while the signing credentials last (clients cache by it).
        """
        ...

    def links(self, bucket: str, keys: Sequence[str], *, signed_at: int, expires_in: int) -> list[str]:
        """`link` for each key, in order: an answer's dozen cards for one look at the credentials."""
        ...

    def upload_form(
        self, bucket: str, key: str, *, max_bytes: int, content_type_prefix: str, expires_in: int
    ) -> dict[str, Any]:
        """A presigned POST form (`url`, `fields`) for at most `max_bytes` of a type under the prefix."""
        ...

    def read(self, bucket: str, key: str, *, limit: int) -> bytes | None:
        """The object's first `limit` bytes; None when there is no such object."""
        ...

    def put(self, bucket: str, key: str, data: bytes, *, content_type: str) -> None: ...

    def delete(self, bucket: str, key: str) -> None:
        """Idempotent: deleting an object that is already gone succeeds."""
        ...
