"""Idempotency-Key on POSTs: a retry gets the first answer back and nothing is applied twice."""

from __future__ import annotations

import zlib
from typing import Any

import pytest

from app.games import play as games

from ..client import Client
from ..helpers import assert_problem, create_game, give_clue, hand, inbox, lobby, started, view
from ..stream import StreamFeed


def key(name: str) -> dict[str, str]:
    return {"Idempotency-Key": name}


def unsigned(body: Any) -> Any:
    """The body with every image link blanked: a replay signs its links afresh, so only they differ."""
    if isinstance(body, dict):
        return {k: None if k == "image_url" else unsigned(v) for k, v in body.items()}
    if isinstance(body, list):
        return [unsigned(v) for v in body]
    return body


def test_retrying_a_create_returns_the_same_game_and_creates_only_one(
    players: list[Client], feed: StreamFeed
) -> None:
    host = players[0]
    first = host.post("/games", {"rules": "odyssey"}, headers=key("create-1"))
    again = host.post("/games", {"rules": "odyssey"}, headers=key("create-1"))
    assert first.status == again.status == 201
    assert unsigned(again.body) == unsigned(first.body)
    assert again.headers["ETag"] == first.headers["ETag"]
    assert [g["game_id"] for g in inbox(host, feed).body["games"]] == [first.body["game_id"]]


def test_retrying_a_move_returns_the_first_answer_and_applies_nothing_twice(players: list[Client]) -> None:
    table = players[:4]
    game_id = started(table)
    teller = give_clue(table, game_id)
    guesser = next(c for c in table if c is not teller)
    card = hand(guesser, game_id)[0]
    body = {"card_ids": [card]}
    first = guesser.post(f"/games/{game_id}/submissions", body, headers=key("submit-1"))
    assert first.status == 200, first.raw
    version = view(guesser, game_id)["version"]

    again = guesser.post(f"/games/{game_id}/submissions", body, headers=key("submit-1"))

    assert (again.status, unsigned(again.body)) == (first.status, unsigned(first.body))
    assert view(guesser, game_id)["version"] == version
    assert view(guesser, game_id)["you"]["submitted"] == [card]


def test_a_retry_after_others_moved_still_returns_the_first_answer(players: list[Client]) -> None:
    table = players[:3]
    game_id = lobby(table)
    first = table[0].post(f"/games/{game_id}/start", headers=key("start-1"))
    assert first.status == 200, first.raw
    give_clue(table, game_id)
    again = table[0].post(f"/games/{game_id}/start", headers=key("start-1"))
    assert (again.status, unsigned(again.body)) == (first.status, unsigned(first.body))
    assert view(table[0], game_id)["phase"] == "submitting"


def test_without_a_key_a_repeated_move_is_simply_refused(players: list[Client]) -> None:
    table = players[:3]
    game_id = lobby(table)
    assert table[0].post(f"/games/{game_id}/start").status == 200
    assert_problem(table[0].post(f"/games/{game_id}/start"), 409, "game_started")


def test_the_same_key_with_a_different_body_is_422_idempotency_key_reused(
    players: list[Client], feed: StreamFeed
) -> None:
    host = players[0]
    assert host.post("/games", {"rules": "classic"}, headers=key("k")).status == 201
    reply = host.post("/games", {"rules": "odyssey"}, headers=key("k"))
    assert_problem(reply, 422, "idempotency_key_reused")
    assert len(inbox(host, feed).body["games"]) == 1


def test_the_same_key_on_another_route_is_another_request(players: list[Client]) -> None:
    host, guest = players[:2]
    one, two = create_game(host), create_game(host)
    assert guest.post(f"/games/{one}/join", headers=key("join")).status == 200
    reply = guest.post(f"/games/{two}/join", headers=key("join"))
    assert reply.status == 200, reply.raw
    assert reply.body["game_id"] == two


def test_the_same_key_from_another_player_is_another_request(players: list[Client]) -> None:
    game_id = create_game(players[0])
    first = players[1].post(f"/games/{game_id}/join", headers=key("shared"))
    second = players[2].post(f"/games/{game_id}/join", headers=key("shared"))
    assert first.status == second.status == 200
    assert len(view(players[0], game_id)["players"]) == 3


def test_a_refused_request_is_not_remembered_so_its_key_can_be_retried(players: list[Client]) -> None:
    table = players[:3]
    game_id = lobby(table[:2])
    assert_problem(table[0].post(f"/games/{game_id}/start", headers=key("go")), 409, "not_enough_players")
    assert table[2].post(f"/games/{game_id}/join").status == 200
    reply = table[0].post(f"/games/{game_id}/start", headers=key("go"))
    assert reply.status == 200, reply.raw
    assert reply.body["phase"] == "storytelling"


@pytest.mark.parametrize("bad", ["   ", "k" * 129, "key\x7f", "key\tone", "clé"])
def test_a_blank_or_overlong_key_is_400_invalid_idempotency_key(
    players: list[Client], bad: str, feed: StreamFeed
) -> None:
    assert_problem(players[0].post("/games", {}, headers=key(bad)), 400, "invalid_idempotency_key")
    assert inbox(players[0], feed).body["games"] == []


def test_a_key_of_the_longest_allowed_length_is_accepted_and_keeps_a_retry_from_repeating(
    players: list[Client], feed: StreamFeed
) -> None:
    first = players[0].post("/games", {}, headers=key("k" * 128))
    assert first.status == 201, first.raw
    again = players[0].post("/games", {}, headers=key("k" * 128))
    assert (again.status, again.body["game_id"]) == (201, first.body["game_id"])
    assert [g["game_id"] for g in inbox(players[0], feed).body["games"]] == [first.body["game_id"]]


class Killed(BaseException):
    """What a Lambda timeout looks like to the use case: the request never finishes."""


def test_a_key_whose_request_was_killed_before_its_write_is_free_again_at_once(
    players: list[Client], monkeypatch: pytest.MonkeyPatch, feed: StreamFeed
) -> None:
    host = players[0]

    def killed(*args: object, **kwargs: object) -> None:
        raise Killed

    with monkeypatch.context() as during:
        during.setattr(games.engine, "new_game", killed)
        with pytest.raises(Killed):
            host.post("/games", {}, headers=key("timed-out"))

    reply = host.post("/games", {}, headers=key("timed-out"))

    assert reply.status == 201, reply.raw
    assert len(inbox(host, feed).body["games"]) == 1


def test_a_replay_hands_out_freshly_signed_image_links(players: list[Client], table: Any) -> None:
    host = players[0]
    first = host.post("/games", {}, headers=key("links"))
    game_id = first.body["game_id"]
    lobby_ = [host, *players[1:3]]
    for guest in lobby_[1:]:
        assert guest.post(f"/games/{game_id}/join").status == 200
    started_ = host.post(f"/games/{game_id}/start", headers=key("deal"))
    assert started_.status == 200, started_.raw
    stored = [i for i in table.scan()["Items"] if i["pk"] == "IDEMPOTENCY"]
    assert len(stored) == 2  # the create and the deal
    assert all(len(bytes(i["answer"])) <= 1024 for i in stored)
    assert all(b"X-Amz" not in zlib.decompress(bytes(i["answer"])) for i in stored)

    again = host.post(f"/games/{game_id}/start", headers=key("deal"))

    links = [card["image_url"] for card in again.body["you"]["hand"]]
    assert links
    assert all(link and "X-Amz-Signature" in link for link in links)
    assert [c["card_id"] for c in again.body["you"]["hand"]] == [
        c["card_id"] for c in started_.body["you"]["hand"]
    ]


def test_retrying_a_new_deck_returns_the_same_deck_and_makes_only_one(
    players: list[Client],
) -> None:
    owner = players[0]
    body = {"name": "Sketches", "card_count": 6}
    first = owner.post("/decks", body, headers=key("deck-1"))
    again = owner.post("/decks", body, headers=key("deck-1"))
    assert first.status == again.status == 201, again.raw
    assert again.body["deck_id"] == first.body["deck_id"]
    assert [u["card_id"] for u in again.body["uploads"]] == [u["card_id"] for u in first.body["uploads"]]
    other = owner.post("/decks", body, headers=key("deck-2"))
    assert other.body["deck_id"] != first.body["deck_id"]
