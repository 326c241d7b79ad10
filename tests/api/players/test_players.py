"""Registering, bearer tokens, and the "your turn" inbox."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from ..client import Client, call
from ..helpers import assert_problem, create_game, give_clue, inbox, lobby, started, storyteller, submit_all
from ..stream import StreamFeed

GAME = "g_0123456789abcdef"
# (method, path, a body that passes schema validation: the resolver validates bodies before the route runs)
AUTHENTICATED_ROUTES: list[tuple[str, str, Any]] = [
    ("GET", "/players/me", None),
    ("GET", "/players/me/games", None),
    ("POST", "/games", {}),
    ("GET", "/games", None),
    ("GET", f"/games/{GAME}", None),
    ("GET", f"/games/{GAME}/rounds", None),
    ("POST", f"/games/{GAME}/join", None),
    ("POST", f"/games/{GAME}/leave", None),
    ("POST", f"/games/{GAME}/start", None),
    ("POST", f"/games/{GAME}/clue", {"card_id": "base-001", "clue": "home"}),
    ("POST", f"/games/{GAME}/submissions", {"card_ids": ["base-001"]}),
    ("POST", f"/games/{GAME}/votes", {"card_ids": ["base-001"]}),
]
PUBLIC_ROUTES = ["/decks", "/decks/base/cards", "/openapi.json", "/docs"]

# A player who never attached an address (see tests/api/sign_in/test_sign_in.py for one who did).
NO_EMAIL = {"email": None, "email_verified": False, "pending_email": None}


# Registering


def test_registering_answers_201_with_the_id_the_name_and_a_token(aws: None) -> None:
    reply = call("POST", "/players", body={"name": "Ada"})
    assert reply.status == 201, reply.raw
    assert set(reply.body) == {"player_id", "name", "token"}
    assert reply.body["name"] == "Ada"
    assert reply.body["player_id"].startswith("p_")
    assert reply.body["token"]


def test_the_token_is_shown_once_and_never_again(aws: None) -> None:
    ada = Client("Ada").register()
    me = ada.get("/players/me")
    assert me.status == 200
    assert me.body == {
        "player_id": ada.player_id,
        "name": "Ada",
        "session_id": ada.token.split(".")[1],
        **NO_EMAIL,
    }
    assert ada.token not in me.raw


def test_a_name_is_trimmed_of_surrounding_spaces(aws: None) -> None:
    reply = call("POST", "/players", body={"name": "  Ada  "})
    assert reply.status == 201
    assert reply.body["name"] == "Ada"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        # The schema states that a name shows something; the rules refuse it with their own code.
        ({"name": "   "}, "blank_name"),
        ({"name": "Ada\u2028"}, "separator_character"),
        ({"name": "x" * 41}, "validation_error"),  # the schema holds the rules' limit
        ({}, "validation_error"),
        ({"name": 42}, "validation_error"),
        ({"name": "Ada", "admin": True}, "validation_error"),
    ],
)
def test_a_bad_name_is_refused_with_422(aws: None, body: dict[str, Any], code: str) -> None:
    assert_problem(call("POST", "/players", body=body), 422, code)


def test_two_players_with_the_same_name_are_two_players(aws: None) -> None:
    first, second = Client("Ada").register(), Client("Ada").register()
    assert first.player_id != second.player_id
    assert first.token != second.token


def test_only_a_hash_of_the_token_is_stored(table: Any) -> None:
    ada = Client("Ada").register()
    _, session_id, secret = ada.token.split(".")
    session = table.get_item(Key={"pk": f"PLAYER#{ada.player_id}", "sk": f"SESSION#{session_id}"})["Item"]
    assert session["token_hash"] == hashlib.sha256(secret.encode()).hexdigest()
    everything = json.dumps(table.scan()["Items"], default=str)
    assert secret not in everything
    assert ada.token not in everything


# Tokens


@pytest.mark.parametrize(("method", "path", "body"), AUTHENTICATED_ROUTES)
def test_every_game_route_without_a_token_is_401_missing_token(
    aws: None, method: str, path: str, body: Any
) -> None:
    assert_problem(call(method, path, body=body), 401, "missing_token")


@pytest.mark.parametrize(("method", "path", "body"), AUTHENTICATED_ROUTES)
def test_every_game_route_with_a_bad_token_is_401_invalid_token(
    players: list[Client], method: str, path: str, body: Any
) -> None:
    forged = f"{players[0].player_id}.not-the-secret"
    reply = call(method, path, body=body, headers={"Authorization": f"Bearer {forged}"})
    assert_problem(reply, 401, "invalid_token")


@pytest.mark.parametrize(
    "authorization",
    ["Bearer p_0123456789abcdef.whatever", "Bearer nodot", "Bearer p_.secret", "Bearer x.y", "Bearer p_abc."],
)
def test_an_unknown_or_malformed_token_is_401_invalid_token(aws: None, authorization: str) -> None:
    assert_problem(call("GET", "/players/me", headers={"Authorization": authorization}), 401, "invalid_token")


@pytest.mark.parametrize("authorization", ["", "Bearer ", "Basic YWRhOnB3", "token-without-scheme"])
def test_an_authorization_header_without_a_bearer_token_is_401_missing_token(
    aws: None, authorization: str
) -> None:
    assert_problem(call("GET", "/players/me", headers={"Authorization": authorization}), 401, "missing_token")


def test_the_authorization_header_and_the_scheme_are_case_insensitive(aws: None) -> None:
    ada = Client("Ada").register()
    reply = call("GET", "/players/me", headers={"authorization": f"bearer {ada.token}"})
    assert reply.status == 200, reply.raw
    assert reply.body["player_id"] == ada.player_id


def test_one_players_token_never_authenticates_another(players: list[Client]) -> None:
    ada, bob = players[0], players[1]
    _, session_id, secret = bob.token.split(".")
    for borrowed in (f"{ada.player_id}.{secret}", f"{ada.player_id}.{session_id}.{secret}"):
        reply = call("GET", "/players/me", headers={"Authorization": f"Bearer {borrowed}"})
        assert_problem(reply, 401, "invalid_token")


@pytest.mark.parametrize("path", PUBLIC_ROUTES)
def test_decks_and_documentation_need_no_token(aws: None, path: str) -> None:
    assert call("GET", path).status == 200


# The inbox


def test_a_new_player_has_an_empty_inbox(aws: None) -> None:
    reply = Client("Ada").register().get("/players/me/games")
    assert reply.status == 200
    assert reply.body == {"games": [], "next_cursor": None}


def test_a_lobby_is_the_hosts_turn_only_once_three_players_are_seated(
    players: list[Client], feed: StreamFeed
) -> None:
    host, guest, third = players[:3]
    game_id = lobby([host, guest])
    assert [(g["game_id"], g["your_turn"]) for g in inbox(host, feed).body["games"]] == [(game_id, False)]
    assert third.post(f"/games/{game_id}/join").status == 200
    [entry] = inbox(host, feed).body["games"]
    assert entry["your_turn"] is True
    assert entry["phase"] == "lobby"
    assert entry["player_count"] == 3
    assert [g["your_turn"] for g in inbox(guest, feed).body["games"]] == [False]


def test_the_inbox_marks_your_turn_for_exactly_whoever_the_game_waits_on(
    players: list[Client], feed: StreamFeed
) -> None:
    table = players[:4]
    game_id = started(table)

    def turns() -> dict[str, bool]:
        flags = {}
        for client in table:
            [entry] = inbox(client, feed).body["games"]
            assert entry["game_id"] == game_id
            flags[client.player_id] = entry["your_turn"]
        return flags

    teller = storyteller(table, game_id)
    assert turns() == {c.player_id: c is teller for c in table}
    give_clue(table, game_id)
    assert turns() == {c.player_id: c is not teller for c in table}
    [entry] = inbox(teller, feed).body["games"]
    assert entry["phase"] == "submitting"
    assert entry["round_number"] == 1
    assert entry["waiting_for"] == [c.player_id for c in table if c is not teller]
    submit_all(table, game_id)
    assert turns() == {c.player_id: c is not teller for c in table}


def test_the_inbox_lists_games_where_it_is_your_turn_first(players: list[Client], feed: StreamFeed) -> None:
    ada = players[0]
    # Oldest first: a lobby Ada hosts, then a game where someone else tells the story, then her turn.
    waiting_lobby = create_game(ada)
    others_turn = started(players[:4])
    teller = storyteller(players[:4], others_turn)
    if teller is ada:
        give_clue(players[:4], others_turn)  # now everyone but Ada is waited on
    mine = started([players[4], ada, players[5]])
    if storyteller([players[4], ada, players[5]], mine) is not ada:
        give_clue([players[4], ada, players[5]], mine)  # Ada must submit
    entries = inbox(ada, feed).body["games"]
    assert [e["your_turn"] for e in entries] == [True, False, False]
    assert entries[0]["game_id"] == mine
    assert {e["game_id"] for e in entries[1:]} == {waiting_lobby, others_turn}
    # Among the games that do not wait on Ada, live ones come before lobbies.
    assert [e["game_id"] for e in entries[1:]] == [others_turn, waiting_lobby]


@pytest.mark.parametrize(
    ("path", "raw_body"),
    [("/games", "{not json"), ("/games", '{"rules": "chess"}'), ("/games/g_0123456789abcdef/votes", "{}")],
)
def test_a_caller_without_a_token_hears_401_before_anything_about_the_body(
    aws: None, path: str, raw_body: str
) -> None:
    reply = call("POST", path, raw_body=raw_body)
    assert_problem(reply, 401, "missing_token")
