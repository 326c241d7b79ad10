"""Personal tokens over HTTP: made, listed and revoked by the player's own session, and held to their
scopes on every route, whichever lane answers (403 insufficient_scope naming the scope)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from app.core import rates
from app.players.scopes import Scope
from handlers import api
from handlers.api import whole_api
from handlers.openapi import document
from handlers.route_table import ROUTES

from ..client import Client, call
from ..helpers import assert_problem, create_game, play_to_the_end

PLAYING = ["games:read", "games:play"]


def personal(owner: Client, scopes: list[str], name: str = "my bot") -> Client:
    """The owner's player, as a script holding a new personal token with `scopes` sees it."""
    reply = owner.post("/players/me/personal-tokens", {"name": name, "scopes": scopes})
    assert reply.status == 201, reply.raw
    return Client(f"{owner.name}'s {name}", token=reply.body["token"], player_id=owner.player_id)


def token_id(bot: Client) -> str:
    return bot.token.split(".")[1]


def assert_scope_refused(reply: Any, scope: str) -> None:
    problem = assert_problem(reply, 403, "insufficient_scope")
    assert problem["scope"] == scope
    assert scope in problem["detail"]
    assert reply.headers["WWW-Authenticate"] == f'Bearer error="insufficient_scope", scope="{scope}"'


def test_a_token_is_shown_once_and_listed_without_its_secret(players: list[Client]) -> None:
    ada = players[0]
    made = ada.post(
        "/players/me/personal-tokens", {"name": " my bot ", "scopes": ["games:play", "games:read"]}
    )
    assert made.status == 201, made.raw
    assert made.headers["Cache-Control"] == "no-store"
    assert made.headers["Location"] == "/players/me/personal-tokens"
    body = made.body
    assert body["token"].startswith(f"{ada.player_id}.t_")
    assert body["token"].split(".")[1] == body["token_id"]
    assert (body["name"], body["scopes"], body["last_used_at"]) == ("my bot", PLAYING, None)
    listed = ada.get("/players/me/personal-tokens")
    assert listed.status == 200
    assert listed.headers["Cache-Control"] == "no-store"
    (shown,) = listed.body["personal_tokens"]
    assert shown == {k: v for k, v in body.items() if k != "token"}
    secret = body["token"].split(".")[2]
    assert secret not in listed.raw


def test_a_playing_token_plays_a_whole_game(players: list[Client]) -> None:
    bots = [personal(p, PLAYING) for p in players[:3]]
    game_id = create_game(bots[0], target_score=1)
    for bot in bots[1:]:
        assert bot.post(f"/games/{game_id}/join").status == 200
    assert bots[0].post(f"/games/{game_id}/start").status == 200
    play_to_the_end(bots, game_id)
    assert bots[1].get("/players/me/games", query={"status": "finished"}).status == 200


@pytest.mark.parametrize(
    ("method", "path", "body", "scope"),
    [
        ("PATCH", "/players/me", {"name": "Mallory"}, "account:write"),
        ("GET", "/players/me/export", None, "account:read"),
        ("GET", "/players/me", None, "account:read"),
        ("DELETE", "/players/me", None, "account:owner"),
        ("POST", "/players/me/personal-tokens", {"name": "more", "scopes": PLAYING}, "account:owner"),
        ("GET", "/players/me/personal-tokens", None, "account:owner"),
        ("GET", "/players/me/sessions", None, "account:owner"),
        ("POST", "/players/me/tokens", None, "account:owner"),
        ("PUT", "/players/me/notifications", {"email": False}, "notifications:manage"),
        ("POST", "/players/me/webhooks", {"url": "https://bot.example.com/hook"}, "webhooks:manage"),
    ],
)
def test_a_playing_token_is_refused_outside_its_scopes_before_its_body_is_read(
    players: list[Client], method: str, path: str, body: Any, scope: str
) -> None:
    ada = players[0]
    bot = personal(ada, PLAYING)
    assert_scope_refused(call(method, path, body=body, headers=bot.auth()), scope)
    # Nothing happened: the player is still there, named as before, with one token.
    me = ada.get("/players/me")
    assert me.status == 200
    assert me.body["name"] == ada.name
    assert len(ada.get("/players/me/personal-tokens").body["personal_tokens"]) == 1


def test_a_token_cannot_revoke_tokens_not_even_itself(players: list[Client]) -> None:
    bot = personal(players[0], [*PLAYING, "account:read", "account:write"])
    reply = bot.delete(f"/players/me/personal-tokens/{token_id(bot)}")
    assert_scope_refused(reply, "account:owner")
    assert bot.get("/players/me").status == 200


@pytest.mark.parametrize("direct_lane", [True, False], ids=["direct lane", "resolver"])
def test_every_lane_holds_a_token_to_its_scopes(
    players: list[Client], monkeypatch: pytest.MonkeyPatch, direct_lane: bool
) -> None:
    monkeypatch.setattr(api, "direct_lane", direct_lane)
    game_id = create_game(players[0])
    reader = personal(players[1], ["games:read"])
    notifier = personal(players[1], ["notifications:manage"])
    assert_scope_refused(reader.post(f"/games/{game_id}/join"), "games:play")
    assert_scope_refused(notifier.get(f"/games/{game_id}"), "games:read")
    assert reader.get(f"/games/{game_id}").status == 200
    assert len(players[0].get(f"/games/{game_id}").body["players"]) == 1


def test_a_scoped_token_is_told_nothing_of_a_resource_the_table_does_not_name(players: list[Client]) -> None:
    bot = personal(players[0], PLAYING)
    # API Gateway never sends such a resource; the resolver alone could still match its path.
    reply = call("GET", "/players/me/nowhere", headers=bot.auth())
    assert_problem(reply, 404, "route_not_found")


def test_a_revoked_token_is_a_401_at_once_and_the_others_keep_working(players: list[Client]) -> None:
    ada = players[0]
    first, second = personal(ada, PLAYING, "one"), personal(ada, PLAYING, "two")
    assert first.get("/players/me/games").status == 200
    assert ada.delete(f"/players/me/personal-tokens/{token_id(first)}").status == 204
    assert_problem(first.get("/players/me/games"), 401, "invalid_token")
    assert second.get("/players/me/games").status == 200
    assert ada.get("/players/me").status == 200
    assert [t["name"] for t in ada.get("/players/me/personal-tokens").body["personal_tokens"]] == ["two"]
    assert_problem(
        ada.delete(f"/players/me/personal-tokens/{token_id(first)}"), 404, "personal_token_not_found"
    )


def test_nobody_revokes_another_players_token(players: list[Client]) -> None:
    ada_bot = personal(players[0], PLAYING)
    reply = players[1].delete(f"/players/me/personal-tokens/{token_id(ada_bot)}")
    assert_problem(reply, 404, "personal_token_not_found")
    assert ada_bot.get("/players/me/games").status == 200


def test_a_forged_secret_or_a_token_of_another_player_is_refused(players: list[Client]) -> None:
    bot = personal(players[0], PLAYING)
    player, tid, _ = bot.token.split(".")
    for forged in (
        f"{player}.{tid}.not-the-secret",
        f"{players[1].player_id}.{tid}.{bot.token.split('.')[2]}",
    ):
        reply = call("GET", "/players/me/games", headers={"Authorization": f"Bearer {forged}"})
        assert_problem(reply, 401, "invalid_token")


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        # The schema lists every scope but the owner's.
        ({"name": "root", "scopes": ["games:read", "account:owner"]}, 422, "validation_error"),
        ({"name": "x", "scopes": ["games:admin"]}, 422, "validation_error"),
        ({"name": "x", "scopes": []}, 422, "validation_error"),
        ({"name": "   ", "scopes": PLAYING}, 422, "blank_token_name"),
        ({"name": "x" * 41, "scopes": PLAYING}, 422, "validation_error"),
        ({"name": "a\u202eb", "scopes": PLAYING}, 422, "bidi_control"),
    ],
)
def test_a_token_is_made_only_with_grantable_scopes_and_a_readable_name(
    players: list[Client], body: dict[str, Any], status: int, code: str
) -> None:
    assert_problem(players[0].post("/players/me/personal-tokens", body), status, code)
    assert players[0].get("/players/me/personal-tokens").body["personal_tokens"] == []


def test_a_player_holds_at_most_twenty_tokens_and_revoking_one_frees_a_place(players: list[Client]) -> None:
    ada = players[0]
    made = [personal(ada, ["games:read"], f"bot {i}") for i in range(20)]
    reply = ada.post("/players/me/personal-tokens", {"name": "one more", "scopes": ["games:read"]})
    assert_problem(reply, 409, "too_many_personal_tokens")
    assert ada.delete(f"/players/me/personal-tokens/{token_id(made[0])}").status == 204
    personal(ada, ["games:read"], "one more")


def test_the_session_still_does_everything(players: list[Client]) -> None:
    ada = players[0]
    personal(ada, PLAYING)
    assert call("PATCH", "/players/me", body={"name": "Ada L."}, headers=ada.auth()).status == 200
    assert ada.get("/players/me/export").status == 200
    assert ada.get("/players/me/sessions").status == 200


def test_every_scoped_route_says_its_scope_in_the_document() -> None:
    doc = json.loads(document(whole_api()))
    for route in ROUTES:
        if not route.documented:
            continue
        operation = doc["paths"][route.path][route.method.lower()]
        if route.scope is None:
            assert "security" not in operation, route.operation_id
        else:
            # A bearer token holding the scope, or an app's OAuth token for any scope an app may hold.
            bearer = [{"bearerAuth": [route.scope.value]}]
            apps = [{"oauth2": [route.scope.value]}] if route.scope is not Scope.OWNER else []
            assert operation["security"] == bearer + apps, route.operation_id
            assert "403" in operation["responses"], route.operation_id


def test_the_export_lists_tokens_without_their_secrets(players: list[Client]) -> None:
    ada = players[0]
    bot = personal(ada, PLAYING)
    assert bot.get("/players/me/games").status == 200  # a use, so last_used_at is set
    export = ada.get("/players/me/export")
    assert export.status == 200
    (listed,) = export.body["personal_tokens"]
    assert (listed["token_id"], listed["name"], listed["scopes"]) == (token_id(bot), "my bot", PLAYING)
    assert listed["last_used_at"] is not None
    assert bot.token.split(".")[2] not in export.raw
    assert "hash" not in json.dumps(listed)


def test_deleting_the_account_ends_its_tokens_and_their_items(players: list[Client], table: Any) -> None:
    ada = players[0]
    bot = personal(ada, PLAYING)
    assert ada.delete("/players/me").status == 204
    assert_problem(bot.get("/players/me/games"), 401, "invalid_token")
    items = table.query(
        KeyConditionExpression="pk = :pk", ExpressionAttributeValues={":pk": f"PLAYER#{ada.player_id}"}
    )["Items"]
    assert items == []


def test_a_token_past_its_minutes_requests_is_a_429_until_the_next_minute_and_others_go_on(
    players: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rates, "PERSONAL_TOKEN_PER_MINUTE", replace(rates.PERSONAL_TOKEN_PER_MINUTE, limit=3))
    ada = players[0]
    bot, other = personal(ada, PLAYING, "busy"), personal(ada, PLAYING, "calm")
    for _ in range(3):
        assert bot.get("/players/me/games").status == 200
    refused = bot.get("/players/me/games")
    assert_problem(refused, 429, "token_rate_limited")
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    # The lane answers after the same admission: a move is refused too, before anything is read.
    assert_problem(bot.post("/games/g_0123456789abcdef/join"), 429, "token_rate_limited")
    assert other.get("/players/me/games").status == 200
    assert ada.get("/players/me/games").status == 200  # the session is never counted


def test_a_token_past_its_days_requests_is_a_429_with_the_wait_to_the_days_end(
    players: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rates, "PERSONAL_TOKEN_PER_DAY", replace(rates.PERSONAL_TOKEN_PER_DAY, limit=2))
    bot = personal(players[0], PLAYING)
    assert bot.get("/players/me/games").status == 200
    assert bot.get("/players/me/games").status == 200
    refused = bot.get("/players/me/games")
    assert_problem(refused, 429, "token_daily_limit")
    assert 1 <= int(refused.headers["Retry-After"]) <= 86_400


def test_a_wrong_secret_uses_up_nothing_of_the_tokens_requests(
    players: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rates, "PERSONAL_TOKEN_PER_MINUTE", replace(rates.PERSONAL_TOKEN_PER_MINUTE, limit=1))
    bot = personal(players[0], PLAYING)
    player, tid, _ = bot.token.split(".")
    for _ in range(3):
        forged = call("GET", "/players/me/games", headers={"Authorization": f"Bearer {player}.{tid}.x"})
        assert_problem(forged, 401, "invalid_token")
    assert bot.get("/players/me/games").status == 200
