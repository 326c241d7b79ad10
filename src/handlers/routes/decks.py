"""Decks: the official catalogue is public; a custom deck is created, uploaded and inspected by its owner."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.request import Request

from app.core import rates
from app.core.errors import NotFound
from app.decks import custom as custom_decks
from app.decks.presenters import cards, deck_created, deck_detail, official_deck_detail
from app.decks.schemas import CreateDeck, DeckCards, DeckCreated, DeckDetail, DeckOut, Decks
from app.games import keyed
from dixit.cards import OFFICIAL_DECKS
from handlers.http import (
    Adapters,
    Caller,
    IdempotencyKey,
    created,
    json_response,
    location,
    request_key,
    to_response,
)
from handlers.problems import answers
from handlers.route_table import Endpoints

endpoint = Endpoints()


@endpoint(
    "listDecks",
    summary="Decks that can be mixed into a game",
    **answers({200: {"description": "Every deck"}}),
)
def list_decks() -> Response[Decks]:
    decks = [
        DeckOut(deck_id=d.deck_id, name=d.name, card_count=d.card_count) for d in OFFICIAL_DECKS.values()
    ]
    return json_response(Decks(decks=decks))


@endpoint(
    "listDeckCards",
    summary="An official deck's cards with image links (official decks only)",
    description=(
        "Public, for official decks only: a custom deck is 404 deck_not_found here, whoever asks. "
        "Its owner sees its cards, with their links and upload status, at GET /decks/{deck_id}."
    ),
    **answers({200: {"description": "The deck's cards"}}, 404),
)
def deck_cards(deck_id: str, adapters: Adapters) -> Response[DeckCards]:
    deck = OFFICIAL_DECKS.get(deck_id)
    if deck is None:
        raise NotFound(
            "deck_not_found",
            f"there is no official deck {deck_id!r} (a custom deck's cards: GET /decks/{{deck_id}})",
        )
    return json_response(DeckCards(deck_id=deck.deck_id, cards=cards(adapters.images, deck.card_ids())))


@endpoint(
    "createDeck",
    summary="Create your own deck: one presigned upload form per card",
    description="At most 10 new decks per player a day (429 `too_many_decks`, with Retry-After).",
    **answers(created("The deck and its upload forms", "/decks/{deck_id}"), 400, 401, 413, 415, 422, 429),
)
def create_deck(
    request: Request, body: CreateDeck, player: Caller, adapters: Adapters, key: IdempotencyKey = None
) -> Response[DeckCreated]:
    made_now: list[custom_decks.NewDeck] = []

    def compute() -> dict[str, object]:
        rates.claim(adapters, rates.DECKS_PER_PLAYER, player.player_id)  # a replayed answer is not counted
        fresh = custom_decks.create_deck(
            adapters.decks,
            adapters.images,
            player,
            name=body.name,
            card_count=body.card_count,
            now=adapters.now_iso(),
            descriptions=body.descriptions,
        )
        made_now.append(fresh)
        # Only the id is kept for a retry: its upload forms are signed afresh, as old ones expire.
        return {"deck_id": fresh.deck.deck_id}

    made = keyed.answer_once(adapters, request_key(request, player, key, body), compute)
    if made_now:
        new = made_now[0]
    else:
        deck = custom_decks.owned_deck(adapters.decks, player, str(made["deck_id"]))
        new = custom_decks.with_upload_forms(deck, adapters.images)
    return to_response(
        {
            "status": 201,
            "body": deck_created(new).model_dump(mode="json"),
            "headers": {"Location": location(request, f"/decks/{new.deck.deck_id}")},
        }
    )


@endpoint(
    "getDeck",
    summary="A deck and each card's status (a custom deck: its owner only)",
    **answers({200: {"description": "The deck, ready or not, card by card"}}, 401, 403, 404),
)
def get_deck(deck_id: str, player: Caller, adapters: Adapters) -> Response[DeckDetail]:
    official = OFFICIAL_DECKS.get(deck_id)
    if official is not None:
        return json_response(official_deck_detail(official, adapters.images))
    deck = custom_decks.owned_deck(adapters.decks, player, deck_id)
    return json_response(deck_detail(deck, adapters.images))
