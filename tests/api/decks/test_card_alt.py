"""Every card the API shows carries `alt`: what it shows, so that a blind player can play too."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from app.aws import clients as aws_clients
from app.decks.descriptions import official_descriptions

from ..client import Client, call
from ..helpers import assert_problem, foreign_card, give_clue, rounds, started, submit_all, view
from ..stream import StreamFeed
from .test_custom_decks import upload_all

# Three seats of classic play: every hand dealt and a full rotation of storytellers (dixit.settings).
CUSTOM_CARDS = 32
# What a view of a game costs in DynamoDB calls, as it did before custom cards were described in games:
# the caller's session and player in one batch, then the game item.
VIEW_CALLS = ["BatchGetItem", "GetItem"]

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
        (["   "], "blank_description"),
        (["a \u202eturned\u202c dog"], "bidi_control"),
        (["y" * 201], "validation_error"),
        (["x"] * 7, "too_many_descriptions"),
    ):
        reply = owner.post("/decks", {"name": "Our cards", "card_count": 6, "descriptions": descriptions})
        assert_problem(reply, 422, code)


def _described_deck(owner: Client) -> tuple[str, dict[str, str]]:
    """A ready custom deck of CUSTOM_CARDS cards, each described by its owner, and those descriptions."""
    texts = [f"picture {n}: a paper lantern over {n} stones" for n in range(1, CUSTOM_CARDS + 1)]
    reply = owner.post("/decks", {"name": "Our cards", "card_count": CUSTOM_CARDS, "descriptions": texts})
    assert reply.status == 201, reply.raw
    upload_all(reply.body)
    deck_id: str = reply.body["deck_id"]
    return deck_id, {f"{deck_id}-{n:03d}": text for n, text in enumerate(texts, start=1)}


def _told(cards: list[dict[str, Any]], described: dict[str, str]) -> None:
    assert cards
    for card in cards:
        assert card["alt"] == described[card["card_id"]], card


def test_a_custom_decks_descriptions_are_its_cards_alt_in_hand_table_reveal_history_and_export(
    players: list[Client], feed: StreamFeed
) -> None:
    seats = players[:3]
    deck_id, described = _described_deck(seats[0])
    game_id = started(seats, decks=[deck_id], max_players=3)
    for client in seats:
        _told(view(client, game_id)["you"]["hand"], described)
    teller = give_clue(seats, game_id)
    submit_all(seats, game_id)
    for client in seats:
        _told(view(client, game_id)["round"]["table"], described)
    for client in seats:
        if client is not teller:
            answer = client.post(f"/games/{game_id}/votes", {"card_ids": [foreign_card(client, game_id)]})
            assert answer.status == 200, answer.raw
    # The answer to the move that scored the round shows the reveal too, as every later view does.
    _told(answer.body["last_round"]["cards"], described)
    reveal = view(seats[0], game_id)["last_round"]
    _told(reveal["cards"], described)
    assert reveal["storyteller_card"] in {c["card_id"] for c in reveal["cards"]}
    [history] = rounds(seats[1], feed, game_id).body["rounds"]
    _told(history["cards"], described)
    exported = seats[1].get("/players/me/export").body["games"]
    [(kept,)] = [g["rounds"] for g in exported if g["game_id"] == game_id]
    _told(kept["cards"], described)


class Calls:
    """The DynamoDB operations the app's client makes, each with the partition keys it names."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, list[str]]] = []

    def __call__(self, params: dict[str, Any], model: Any, **_: Any) -> None:
        if model.name == "BatchGetItem":
            keys = [k["pk"]["S"] for table in params["RequestItems"].values() for k in table["Keys"]]
        else:
            keys = [params["Key"]["pk"]["S"]] if "Key" in params else []
        self.calls.append((model.name, keys))

    def of_decks(self) -> list[tuple[str, list[str]]]:
        return [c for c in self.calls if any(k.startswith("DECK#") for k in c[1])]

    def names(self) -> list[str]:
        return [name for name, _ in self.calls]


@pytest.fixture
def calls(aws: None) -> Iterator[Calls]:
    recorder = Calls()
    client = aws_clients.dynamodb()
    client.meta.events.register("provide-client-params.dynamodb", recorder)
    yield recorder
    client.meta.events.unregister("provide-client-params.dynamodb", recorder)


def test_a_view_of_a_game_with_official_decks_only_costs_what_it_did_and_reads_no_deck(
    players: list[Client], calls: Calls
) -> None:
    seats = players[:3]
    game_id = started(seats)
    assert not calls.of_decks()
    for client in seats:
        calls.calls.clear()
        view(client, game_id)
        assert calls.names() == VIEW_CALLS


def test_a_game_reads_its_custom_deck_once_and_its_views_cost_no_more_than_an_official_games(
    players: list[Client], calls: Calls
) -> None:
    seats = players[:3]
    deck_id, described = _described_deck(seats[0])
    calls.calls.clear()
    game_id = started(seats, decks=[deck_id], max_players=3)
    for client in seats:
        _told(view(client, game_id)["you"]["hand"], described)
    teller = give_clue(seats, game_id)
    submit_all(seats, game_id)
    # The deck is read once, when the new game checks it is the host's and ready: that read's
    # descriptions serve every view and move's answer after it (another environment reads them once).
    assert calls.of_decks() == [("GetItem", [f"DECK#{deck_id}"])]
    for client in seats:
        calls.calls.clear()
        _told(view(client, game_id)["round"]["table"], described)
        assert calls.names() == VIEW_CALLS
    assert teller in seats
