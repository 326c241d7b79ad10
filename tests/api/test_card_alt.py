"""Every card the API shows carries `alt`: what it shows, so that a blind player can play too."""

from __future__ import annotations

import re

from app.decks.descriptions import official_descriptions

from .client import Client, call
from .helpers import assert_problem, foreign_card, give_clue, rounds, started, submit_all, view
from .stream import StreamFeed

NEUTRAL = re.compile(r"^card \d+ of deck ")


def _official(card: dict[str, object]) -> None:
    assert card["alt"] == official_descriptions()[str(card["card_id"])]
    assert not NEUTRAL.match(str(card["alt"]))


def test_every_card_of_an_official_deck_is_listed_with_its_description(aws: None) -> None:
    for deck_id in ("base", "odyssey"):
        cards = call("GET", f"/decks/{deck_id}/cards").body["cards"]
        assert len(cards) == 84
        for card in cards:
            _official(card)
        assert len({card["alt"] for card in cards}) == 84


def test_an_official_decks_detail_describes_its_cards_too(players: list[Client]) -> None:
    for card in players[0].get("/decks/quest").body["cards"]:
        _official(card)


def test_the_hand_the_table_and_the_reveal_describe_every_card(
    players: list[Client], feed: StreamFeed
) -> None:
    seats = players[:3]
    game_id = started(seats)
    for card in view(seats[1], game_id)["you"]["hand"]:
        _official(card)
    teller = give_clue(seats, game_id)
    submit_all(seats, game_id)
    table = view(seats[0], game_id)["round"]["table"]
    assert table
    for card in table:
        _official(card)
    for client in seats:
        if client is not teller:
            client.post(f"/games/{game_id}/votes", {"card_ids": [foreign_card(client, game_id)]})
    reveal = view(seats[0], game_id)["last_round"]
    for card in reveal["cards"]:
        _official(card)
    for card in rounds(seats[1], feed, game_id).body["rounds"][0]["cards"]:
        _official(card)


def test_a_custom_decks_owner_describes_cards_at_upload_and_the_rest_get_a_neutral_alt(
    players: list[Client],
) -> None:
    reply = players[0].post(
        "/decks",
        {
            "name": "Our cards",
            "card_count": 6,
            "descriptions": ["  our dog asleep on the stairs ", None, "a kite"],
        },
    )
    assert reply.status == 201, reply.raw
    deck_id = reply.body["deck_id"]
    cards = {c["card_id"]: c["alt"] for c in players[0].get(f"/decks/{deck_id}").body["cards"]}
    assert cards[f"{deck_id}-001"] == "our dog asleep on the stairs"
    assert cards[f"{deck_id}-002"] == f"card 2 of deck {deck_id}"
    assert cards[f"{deck_id}-003"] == "a kite"
    assert cards[f"{deck_id}-006"] == f"card 6 of deck {deck_id}"


def test_a_blank_hostile_or_overlong_description_or_one_too_many_is_refused(players: list[Client]) -> None:
    owner = players[0]
    for descriptions, code in (
        (["   "], "validation_error"),
        (["a \u202eturned\u202c dog"], "validation_error"),
        (["y" * 201], "validation_error"),
        (["x"] * 7, "too_many_descriptions"),
    ):
        reply = owner.post("/decks", {"name": "Our cards", "card_count": 6, "descriptions": descriptions})
        assert_problem(reply, 422, code)
