"""Set-up and assertions shared by the API tests, all through `lambda_handler` via the client."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .client import Client, Reply
from .stream import StreamFeed

PROBLEM_FIELDS = {"type", "title", "status", "detail", "code"}


def assert_problem(reply: Reply, status: int, code: str) -> dict[str, Any]:
    """An RFC 9457 problem with the expected status and stable code, and nothing internal in it."""
    assert reply.status == status, reply.raw
    assert reply.headers.get("Content-Type") == "application/problem+json", reply.headers
    body: dict[str, Any] = reply.body
    assert set(body) >= PROBLEM_FIELDS, body
    assert body["status"] == status
    assert body["code"] == code, body
    assert "Traceback" not in reply.raw
    assert 'File "' not in reply.raw
    return body


def inbox(client: Client, feed: StreamFeed, **query: str) -> Reply:
    """GET /players/me/games once the stream consumer has seen every write so far, as it would have a
    moment after them: the inbox entries are written from the table's stream, not by the moves."""
    assert feed.deliver() == {"batchItemFailures": []}
    return client.get("/players/me/games", query=query or None)


def rounds(client: Client, feed: StreamFeed, game_id: str) -> Reply:
    """GET /games/{id}/rounds once the stream consumer has seen every write so far: a scored round's
    history item is written from the table's stream, a moment after the vote that scored it."""
    assert feed.deliver() == {"batchItemFailures": []}
    return client.get(f"/games/{game_id}/rounds")


def create_game(host: Client, **settings: Any) -> str:
    reply = host.post("/games", settings)
    assert reply.status == 201, reply.raw
    game_id: str = reply.body["game_id"]
    return game_id


def lobby(clients: Sequence[Client], **settings: Any) -> str:
    """A game in the lobby: the first client hosts, the others have joined in order."""
    game_id = create_game(clients[0], **settings)
    invite = None
    if settings.get("visibility") == "private":
        invite = clients[0].get(f"/games/{game_id}").body["invite_code"]
    for guest in clients[1:]:
        reply = guest.post(f"/games/{game_id}/join", {"invite_code": invite} if invite else None)
        assert reply.status == 200, reply.raw
    return game_id


def started(clients: Sequence[Client], **settings: Any) -> str:
    """A game dealt and waiting on its first storyteller."""
    game_id = lobby(clients, **settings)
    reply = clients[0].post(f"/games/{game_id}/start")
    assert reply.status == 200, reply.raw
    return game_id


def view(client: Client, game_id: str) -> dict[str, Any]:
    reply = client.get(f"/games/{game_id}")
    assert reply.status == 200, reply.raw
    body: dict[str, Any] = reply.body
    return body


def by_id(clients: Sequence[Client]) -> dict[str, Client]:
    return {c.player_id: c for c in clients}


def storyteller(clients: Sequence[Client], game_id: str) -> Client:
    return by_id(clients)[view(clients[0], game_id)["round"]["storyteller_id"]]


def hand(client: Client, game_id: str) -> list[str]:
    return [card["card_id"] for card in view(client, game_id)["you"]["hand"]]


def give_clue(clients: Sequence[Client], game_id: str, clue: str = "a quiet storm") -> Client:
    """The storyteller plays the first card of their hand; returns the storyteller."""
    teller = storyteller(clients, game_id)
    reply = teller.post(f"/games/{game_id}/clue", {"card_id": hand(teller, game_id)[0], "clue": clue})
    assert reply.status == 200, reply.raw
    return teller


def submit_all(clients: Sequence[Client], game_id: str) -> None:
    """Every non-storyteller puts forward the first card(s) of their hand: the table is then laid."""
    teller = storyteller(clients, game_id)
    count = 2 if len(clients) == 3 else 1
    for client in clients:
        if client is not teller:
            reply = client.post(f"/games/{game_id}/submissions", {"card_ids": hand(client, game_id)[:count]})
            assert reply.status == 200, reply.raw


def table(client: Client, game_id: str) -> list[str]:
    return [card["card_id"] for card in view(client, game_id)["round"]["table"]]


def foreign_card(client: Client, game_id: str) -> str:
    """A table card the client may vote for (not one of their own)."""
    own = view(client, game_id)["you"]["submitted"]
    return next(c for c in table(client, game_id) if c not in own)


def play_to_the_end(clients: Sequence[Client], game_id: str) -> None:
    """Every owed move played (the first card, the first other card) until the game is over: a game of
    target score 1 ends with its first scored round."""
    players = by_id(clients)
    for _ in range(20):
        body = view(clients[0], game_id)
        if body["phase"] == "finished":
            return
        pid = body["round"]["waiting_for"][0]
        mine = view(players[pid], game_id)
        owed = mine["you"]["owes"]
        if owed["move"] == "clue":
            players[pid].post(
                f"/games/{game_id}/clue", {"card_id": mine["you"]["hand"][0]["card_id"], "clue": "x"}
            )
        elif owed["move"] == "submit":
            cards = [c["card_id"] for c in mine["you"]["hand"][: owed["count"]]]
            players[pid].post(f"/games/{game_id}/submissions", {"card_ids": cards})
        else:
            choice = next(
                c["card_id"] for c in mine["round"]["table"] if c["card_id"] not in mine["you"]["submitted"]
            )
            players[pid].post(f"/games/{game_id}/votes", {"card_ids": [choice]})
    assert view(clients[0], game_id)["phase"] == "finished"
