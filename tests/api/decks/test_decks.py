"""The deck catalogue and card image links."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from app.core.settings import get_settings
from tests.support.aws import BUCKET

from ..client import Client, call
from ..helpers import assert_problem, started, view


def test_the_deck_list_is_public_and_names_every_official_deck(aws: None) -> None:
    reply = call("GET", "/decks")
    assert reply.status == 200
    decks = {d["deck_id"]: d for d in reply.body["decks"]}
    assert {"base", "odyssey", "quest", "journey", "daydreams"} <= set(decks)
    assert decks["base"] == {"deck_id": "base", "name": "Dixit", "card_count": 84}
    assert all(d["card_count"] == 84 for d in decks.values())


def test_a_decks_cards_are_listed_in_order_with_image_links(aws: None) -> None:
    reply = call("GET", "/decks/base/cards")
    assert reply.status == 200
    assert reply.body["deck_id"] == "base"
    cards = reply.body["cards"]
    assert [c["card_id"] for c in cards] == [f"base-{n:03d}" for n in range(1, 85)]
    link = urlparse(cards[0]["image_url"])
    assert BUCKET in link.netloc + link.path
    assert link.path.endswith("/cards/base/base-001.webp")
    settings = get_settings()
    # Signed at the start of the window, valid for the window plus the TTL: one link per window.
    expires = settings.image_url_window_seconds + settings.image_url_ttl_seconds
    assert parse_qs(link.query)["X-Amz-Expires"] == [str(expires)]


@pytest.mark.parametrize("deck_id", ["nope", "Base", "base-001"])
def test_an_unknown_deck_is_404_deck_not_found(aws: None, deck_id: str) -> None:
    assert_problem(call("GET", f"/decks/{deck_id}/cards"), 404, "deck_not_found")


def test_without_a_card_bucket_image_links_are_null(aws: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARD_BUCKET", "")
    get_settings.cache_clear()
    cards = call("GET", "/decks/odyssey/cards").body["cards"]
    assert {c["image_url"] for c in cards} == {None}


def test_your_hand_comes_with_links_to_its_own_images(players: list[Client]) -> None:
    game_id = started(players[:3])
    for card in view(players[1], game_id)["you"]["hand"]:
        deck = card["card_id"].split("-")[0]
        assert urlparse(card["image_url"]).path.endswith(f"/cards/{deck}/{card['card_id']}.webp")


def test_a_game_deals_only_from_the_decks_it_was_created_with(players: list[Client]) -> None:
    game_id = started(players[:6], decks=["odyssey"])
    for client in players[:6]:
        assert {c["card_id"].split("-")[0] for c in view(client, game_id)["you"]["hand"]} == {"odyssey"}
