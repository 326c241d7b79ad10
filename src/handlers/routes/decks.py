"""Decks: public, so a client can show the cards before anyone registers."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.router import APIGatewayRouter

from app.errors import NotFound
from app.presenters import cards
from app.schemas import DeckCards, DeckOut, Decks
from dixit.cards import OFFICIAL_DECKS
from handlers.http import Adapters, json_response
from handlers.problems import answers

router = APIGatewayRouter()


@router.get(
    "/decks",
    tags=["decks"],
    summary="Decks that can be mixed into a game",
    **answers({200: {"description": "Every deck"}}),
)
def list_decks() -> Response[Decks]:
    decks = [
        DeckOut(deck_id=d.deck_id, name=d.name, card_count=d.card_count) for d in OFFICIAL_DECKS.values()
    ]
    return json_response(Decks(decks=decks))


@router.get(
    "/decks/<deck_id>/cards",
    tags=["decks"],
    summary="A deck's cards with image links",
    **answers({200: {"description": "The deck's cards"}}, 404),
)
def deck_cards(deck_id: str, adapters: Adapters) -> Response[DeckCards]:
    deck = OFFICIAL_DECKS.get(deck_id)
    if deck is None:
        raise NotFound("deck_not_found", f"there is no deck {deck_id!r}")
    return json_response(DeckCards(deck_id=deck.deck_id, cards=cards(adapters.images, deck.card_ids())))
