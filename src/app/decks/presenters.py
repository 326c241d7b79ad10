"""Turning deck records and the official catalogue into the deck routes' JSON, image links included."""

from __future__ import annotations

from collections.abc import Mapping

from app.decks.card_images import CardImages
from app.decks.card_schema import Card
from app.decks.custom import NewDeck
from app.decks.descriptions import alt_text, card_bodies
from app.decks.ports import CardStatus, DeckRecord
from app.decks.schemas import DeckCardStatus, DeckCreated, DeckDetail, UploadForm
from dixit.cards import Deck


def cards(
    images: CardImages, card_ids: tuple[str, ...] | list[str], described: Mapping[str, str] | None = None
) -> list[Card]:
    return [Card.model_validate(card) for card in card_bodies(images, card_ids, described)]


def deck_created(created: NewDeck) -> DeckCreated:
    deck = created.deck
    return DeckCreated(
        deck_id=deck.deck_id,
        name=deck.name,
        card_count=deck.card_count,
        uploads=[
            UploadForm(card_id=card_id, url=form["url"], fields=form["fields"])
            for card_id, form in created.uploads.items()
        ],
    )


def deck_detail(deck: DeckRecord, images: CardImages) -> DeckDetail:
    statuses = []
    for card_id in deck.card_ids():
        state = deck.state_of(card_id)
        ready = state.status is CardStatus.READY
        statuses.append(
            DeckCardStatus(
                card_id=card_id,
                status=state.status.value,
                reason=state.reason,
                image_url=images.url_for(card_id) if ready else None,
                alt=alt_text(card_id, deck.descriptions),
            )
        )
    return DeckDetail(
        deck_id=deck.deck_id,
        name=deck.name,
        card_count=deck.card_count,
        official=False,
        ready=deck.ready,
        cards=statuses,
    )


def official_deck_detail(deck: Deck, images: CardImages) -> DeckDetail:
    return DeckDetail(
        deck_id=deck.deck_id,
        name=deck.name,
        card_count=deck.card_count,
        official=True,
        ready=True,
        cards=[
            DeckCardStatus(card_id=c, status="ready", image_url=images.url_for(c), alt=alt_text(c))
            for c in deck.card_ids()
        ],
    )
