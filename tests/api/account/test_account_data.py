"""Your data over HTTP: the export holds everything stored about you and no secret; the delete erases
the account, leaves lobbies, renames the seat elsewhere, and every token of yours is a 401 at once."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import boto3
import pytest
from boto3.dynamodb.conditions import Key

from app.aws.dynamodb.players import DynamoPlayerStore
from app.core.errors import StoreUnavailable
from app.core.settings import get_settings
from app.webhooks import ssrf
from dixit.engine import DELETED_PLAYER_NAME

from ..client import Client
from ..helpers import assert_problem, inbox, lobby, started, view
from ..json_bot import play_to_the_end
from ..sns_inbox import endpoint_exists
from ..stream import StreamFeed


@pytest.fixture
def push(aws: None, monkeypatch: pytest.MonkeyPatch) -> str:
    """An FCM platform application in moto, given to the API as the template would."""
    arn: str = boto3.client("sns").create_platform_application(
        Name="dixit-fcm", Platform="GCM", Attributes={"PlatformCredential": "server-key"}
    )["PlatformApplicationArn"]
    monkeypatch.setenv("FCM_PLATFORM_APPLICATION_ARN", arn)
    get_settings.cache_clear()
    return arn


@pytest.fixture
def account(
    players: list[Client], feed: StreamFeed, push: str, monkeypatch: pytest.MonkeyPatch
) -> dict[str, Any]:
    """Player 0 with a finished game, a running one, a lobby they host, a device, a webhook and mutes."""
    monkeypatch.setattr(ssrf, "system_resolver", lambda host, port: ["93.184.215.14"])  # no DNS in tests
    me, a, b, c = players[:4]
    done = started([me, a, b], target_score=3)
    play_to_the_end([me, a, b], done, seed=3)
    live = started([me, a, b])
    waiting = lobby([me, c])
    assert me.put("/players/me/devices/phone-1", {"platform": "fcm", "push_token": "tok-1"}).status == 201
    assert me.put(f"/games/{live}/notifications", {"muted": True}).status == 200
    assert me.put("/players/me/notifications", {"muted": True}).status == 200
    assert feed.deliver() == {"batchItemFailures": []}  # the inbox entries and the finished history
    # After the stream has gone by: these tests have no delivery queue for its events.
    hook = me.post("/players/me/webhooks", {"url": "https://hooks.example.com/x", "events": ["turn.owed"]})
    assert hook.status == 201, hook.raw
    return {"done": done, "live": live, "lobby": waiting, "hook": hook.body}


def partition(player_id: str) -> list[dict[str, Any]]:
    table = boto3.resource("dynamodb").Table(get_settings().table_name)
    items: list[dict[str, Any]] = table.query(KeyConditionExpression=Key("pk").eq(f"PLAYER#{player_id}"))[
        "Items"
    ]
    return items


def test_the_export_holds_every_game_and_round_and_no_secret(
    players: list[Client], account: dict[str, Any]
) -> None:
    me = players[0]
    reply = me.get("/players/me/export")
    assert reply.status == 200, reply.raw
    assert reply.headers["Cache-Control"] == "no-store"
    assert reply.headers["Content-Disposition"] == f'attachment; filename="dixit-data-{me.player_id}.json"'
    data = reply.body
    assert data["profile"] == {
        "player_id": me.player_id,
        "name": "Player 0",
        "created_at": data["profile"]["created_at"],
        "email": None,
        "email_verified": None,
    }
    [session] = data["sessions"]
    assert set(session) == {"session_id", "device", "created_at", "last_used_at"}
    assert data["devices"] == [
        {"device_id": "phone-1", "platform": "fcm", "registered_at": data["devices"][0]["registered_at"]}
    ]
    [hook] = data["webhooks"]
    assert hook["webhook_id"] == account["hook"]["webhook_id"]
    assert set(hook) == {"webhook_id", "url", "events", "created_at", "health"}
    assert data["preferences"]["muted"] is True
    assert data["preferences"]["muted_games"] == [account["live"]]
    assert data["preferences"]["time_zone"] == "UTC"  # every preference is in, defaults included

    games = {g["game_id"]: g for g in data["games"]}
    assert set(games) == {account["done"], account["live"], account["lobby"]}
    assert games[account["lobby"]]["phase"] == "lobby"
    assert games[account["lobby"]]["players"] == ["Player 0", "Player 3"]
    assert games[account["live"]]["rounds"] == []
    finished = games[account["done"]]
    assert finished["phase"] == "finished"
    assert finished["players"] == ["Player 0", "Player 1", "Player 2"]
    rounds = me.get(f"/games/{account['done']}/rounds").body["rounds"]
    assert finished["rounds"] == rounds
    assert rounds
    seat = next(p for p in view(me, account["done"])["players"] if p["player_id"] == me.player_id)
    assert finished["your_score"] == seat["score"]

    # No token, no token hash, no webhook secret, no push endpoint.
    secret = me.token.rsplit(".", 1)[1]
    for hidden in (me.token, secret, hashlib.sha256(secret.encode()).hexdigest(), account["hook"]["secret"]):
        assert hidden not in reply.raw
    assert "arn:aws:sns" not in reply.raw
    assert "token_hash" not in reply.raw


def test_the_export_needs_a_token(aws: None) -> None:
    assert_problem(Client("nobody").get("/players/me/export"), 401, "missing_token")


def test_deleting_the_account_erases_it_and_leaves_the_games_whole(
    players: list[Client], account: dict[str, Any], feed: StreamFeed
) -> None:
    me, a, _, c = players[:4]
    rounds_before = a.get(f"/games/{account['done']}/rounds").body["rounds"]
    [device] = [i for i in partition(me.player_id) if i["sk"].startswith("DEVICE#")]

    reply = me.delete("/players/me")
    assert reply.status == 204, reply.raw
    assert feed.deliver() == {"batchItemFailures": []}

    # Every token of theirs is refused at once, on every route.
    for path in ("/players/me", "/players/me/export", "/players/me/games", f"/games/{account['live']}"):
        assert_problem(me.get(path), 401, "invalid_token")
    assert_problem(me.delete("/players/me"), 401, "invalid_token")
    # Nothing is left under their partition, and their push endpoint is gone.
    assert partition(me.player_id) == []
    assert not endpoint_exists(device["endpoint_arn"])

    # The finished game keeps the seat, renamed, and every result.
    finished = view(a, account["done"])
    names = {p["player_id"]: p["name"] for p in finished["players"]}
    assert names[me.player_id] == DELETED_PLAYER_NAME
    rounds_after = a.get(f"/games/{account['done']}/rounds").body["rounds"]
    assert [r["points"] for r in rounds_after] == [r["points"] for r in rounds_before]
    told = [r for r in rounds_after if r["storyteller_id"] == me.player_id]
    assert all(r["storyteller_name"] == DELETED_PLAYER_NAME for r in told)
    assert "Player 0" not in json.dumps(rounds_after)
    # The running game keeps the seat, renamed; the timeout policy plays on for it.
    running = view(a, account["live"])
    assert [p["name"] for p in running["players"]] == [DELETED_PLAYER_NAME, "Player 1", "Player 2"]
    # The seat says its account is gone, which is not the same as a missed move.
    assert [p["departed"] for p in running["players"]] == [True, False, False]
    assert [p["departed"] for p in finished["players"]] == [False, False, False]
    assert running["phase"] == "storytelling"
    # The lobby no longer lists them, and its host is the next seat.
    waiting = view(c, account["lobby"])
    assert [p["player_id"] for p in waiting["players"]] == [c.player_id]
    assert waiting["host_id"] == c.player_id
    # The others' inboxes still hold the games.
    assert account["live"] in [g["game_id"] for g in inbox(a, feed).body["games"]]


def test_a_delete_cut_short_is_finished_by_a_retry_with_the_same_token(
    players: list[Client], account: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    me = players[0]
    real = DynamoPlayerStore.delete_player_data

    def lost(self: DynamoPlayerStore, player_id: str) -> int:
        raise StoreUnavailable()

    monkeypatch.setattr(DynamoPlayerStore, "delete_player_data", lost)
    assert_problem(me.delete("/players/me"), 503, "store_unavailable")
    # The games are done with already; the token still works for the retry.
    assert me.get("/players/me").status == 200
    names = {p["player_id"]: p["name"] for p in view(players[1], account["done"])["players"]}
    assert names[me.player_id] == DELETED_PLAYER_NAME

    monkeypatch.setattr(DynamoPlayerStore, "delete_player_data", real)
    assert me.delete("/players/me").status == 204
    assert partition(me.player_id) == []
    assert_problem(me.get("/players/me"), 401, "invalid_token")


def test_a_lost_answer_of_the_last_step_leaves_the_retry_a_401_which_means_it_finished(
    players: list[Client], account: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/accounts.md: the final write (sessions and profile) done, its answer lost: the client hears
    503, and its retry with the same token hears 401 invalid_token, the account fully erased."""
    me = players[0]
    real = DynamoPlayerStore.delete_player_data

    def answer_lost(self: DynamoPlayerStore, player_id: str) -> int:
        real(self, player_id)
        raise StoreUnavailable()

    monkeypatch.setattr(DynamoPlayerStore, "delete_player_data", answer_lost)
    assert_problem(me.delete("/players/me"), 503, "store_unavailable")
    monkeypatch.setattr(DynamoPlayerStore, "delete_player_data", real)
    assert partition(me.player_id) == []
    assert_problem(me.delete("/players/me"), 401, "invalid_token")
    assert_problem(me.get("/players/me"), 401, "invalid_token")
