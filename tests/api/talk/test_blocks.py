"""Blocking a player over HTTP: muted for the blocker, neither joins a public table the other sits at, a
private game's invitation refused quietly when its host blocked the newcomer; the list in the export, and
gone with the account. A join reads the blocks once; no other move reads them."""

from __future__ import annotations

from typing import Any

from app.aws import clients as aws_clients
from tests.support.clock import Clock

from ..client import Client
from ..helpers import assert_problem, create_game, lobby
from .talking import say, talk


def test_a_blocked_players_words_are_hidden_from_the_blocker_and_the_list_is_theirs(
    players: list[Client], clock: Clock
) -> None:
    ada, bob, cy = players[:3]
    game_id = lobby([ada, bob, cy])
    assert ada.put(f"/players/me/blocks/{bob.player_id}").status == 204
    assert ada.put(f"/players/me/blocks/{bob.player_id}").status == 204  # again: still once
    assert ada.get("/players/me/blocks").body == {"blocked": [bob.player_id]}
    assert bob.get("/players/me/blocks").body == {"blocked": []}  # Bob is not told
    say(bob, game_id, "buy my crypto")
    [seen] = talk(ada, game_id)["messages"]  # type: ignore[misc]
    assert (seen["text"], seen["hidden"], seen["hidden_by"]) == (None, True, "you")
    assert [m["text"] for m in talk(cy, game_id)["messages"]] == ["buy my crypto"]  # type: ignore[union-attr]
    export = ada.get("/players/me/export").body
    assert (export["blocked_players"], export["muted_players"]) == ([bob.player_id], [bob.player_id])

    # Unblocking takes the mute it brought too.
    assert ada.delete(f"/players/me/blocks/{bob.player_id}").status == 204
    assert ada.get("/players/me/blocks").body == {"blocked": []}
    assert [m["text"] for m in talk(ada, game_id)["messages"]] == ["buy my crypto"]  # type: ignore[union-attr]


def test_neither_joins_a_public_lobby_the_other_sits_in(players: list[Client], clock: Clock) -> None:
    ada, bob, cy, dan = players[:4]
    assert ada.put(f"/players/me/blocks/{bob.player_id}").status == 204
    mine = create_game(ada, visibility="public")
    # Bob, blocked by the host, is kept out with a clear answer ...
    assert_problem(bob.post(f"/games/{mine}/join"), 403, "player_blocked")
    # ... and so is Ada, the blocker, from Cy's public lobby once Bob sits in it.
    theirs = lobby([cy, bob], visibility="public")
    assert_problem(ada.post(f"/games/{theirs}/join"), 403, "player_blocked")
    # Anyone else joins either.
    assert dan.post(f"/games/{mine}/join").status == 200
    assert dan.post(f"/games/{theirs}/join").status == 200
    assert ada.delete(f"/players/me/blocks/{bob.player_id}").status == 204
    assert bob.post(f"/games/{mine}/join").status == 200


def test_a_private_invitation_from_a_host_who_blocked_you_is_refused_as_a_stale_one(
    players: list[Client], clock: Clock
) -> None:
    ada, bob, cy = players[:3]
    game_id = lobby([ada, cy], visibility="private")
    code = ada.get(f"/games/{game_id}").body["invite_code"]
    stale = bob.post(f"/games/{game_id}/join", {"invite_code": "not-the-code"})
    assert ada.put(f"/players/me/blocks/{bob.player_id}").status == 204
    quiet = bob.post(f"/games/{game_id}/join", {"invite_code": code})
    # Word for word a stale code's answer: Bob cannot tell that Ada blocked him.
    assert_problem(quiet, 403, "bad_invite_code")
    assert quiet.body["detail"] == stale.body["detail"]
    assert "block" not in quiet.raw.lower()
    assert ada.delete(f"/players/me/blocks/{bob.player_id}").status == 204

    # Bob's own block of the host: his list, so he is told.
    assert bob.put(f"/players/me/blocks/{ada.player_id}").status == 204
    assert_problem(bob.post(f"/games/{game_id}/join", {"invite_code": code}), 403, "player_blocked")


def test_in_a_private_game_only_a_block_with_the_host_counts(players: list[Client], clock: Clock) -> None:
    ada, bob, cy = players[:3]
    game_id = lobby([ada, cy], visibility="private")
    code = ada.get(f"/games/{game_id}").body["invite_code"]
    assert bob.put(f"/players/me/blocks/{cy.player_id}").status == 204
    # The host invited Bob: a block between guests is theirs to mind (their talk stays muted).
    assert bob.post(f"/games/{game_id}/join", {"invite_code": code}).status == 200


def test_a_join_reads_the_blocks_once_and_no_other_move_reads_them(
    players: list[Client], clock: Clock
) -> None:
    ada, bob, cy = players[:3]
    assert ada.put(f"/players/me/blocks/{players[3].player_id}").status == 204
    game_id = create_game(ada, visibility="public")
    reads: list[str] = []

    def record(params: dict[str, Any], model: Any, **_: Any) -> None:
        if model.name == "BatchGetItem":
            keys = [k for table in params["RequestItems"].values() for k in table["Keys"]]
            if any(k["sk"]["S"].startswith("BLOCKED#") for k in keys):
                reads.append(model.name)

    client = aws_clients.dynamodb()
    client.meta.events.register("provide-client-params.dynamodb", record)
    try:
        assert bob.post(f"/games/{game_id}/join").status == 200
        assert reads == ["BatchGetItem"]
        assert cy.post(f"/games/{game_id}/join").status == 200
        reads.clear()
        assert ada.post(f"/games/{game_id}/start").status == 200
        assert reads == []
    finally:
        client.meta.events.unregister("provide-client-params.dynamodb", record)


def test_no_one_blocks_themselves_or_nobody(players: list[Client], clock: Clock) -> None:
    ada = players[0]
    assert_problem(ada.put(f"/players/me/blocks/{ada.player_id}"), 422, "cannot_block_yourself")
    assert_problem(ada.put("/players/me/blocks/p_0000000000000000"), 404, "player_not_found")
    assert ada.get("/players/me/blocks").body == {"blocked": []}
