"""OAuth 2.1 for apps over HTTP: the metadata, the redirect to the consent page, the page's two calls, the
token endpoint's form and RFC 6749 errors, and the app's token held to its scopes and to its grant."""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from app.core import rates
from app.oauth import pkce
from handlers.api import whole_api
from handlers.openapi import document

from ..client import Client, Reply, call
from ..helpers import assert_problem, create_game

VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
REDIRECT = "http://127.0.0.1:8765/callback"
CLIENT = "https://bot.example.org"
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def ask(**changes: Any) -> dict[str, Any]:
    fields = {
        "client_id": CLIENT,
        "redirect_uri": REDIRECT,
        "response_type": "code",
        "scope": "games:read games:play",
        "state": "st4te",
        "code_challenge": pkce.challenge_of(VERIFIER),
        "code_challenge_method": "S256",
    }
    return {**fields, **changes}


def approve(owner: Client, **changes: Any) -> str:
    reply = owner.post("/oauth/authorize", {**ask(**changes), "approve": True})
    assert reply.status == 200, reply.raw
    assert reply.headers["Cache-Control"] == "no-store"
    query = parse_qs(urlsplit(reply.body["redirect_to"]).query)
    assert query["state"] == ["st4te"]
    code: str = query["code"][0]
    return code


def token_call(**form: str) -> Reply:
    return call("POST", "/oauth/token", headers=FORM, raw_body=urlencode(form))


def exchange(code: str, **changes: str) -> Reply:
    form = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": REDIRECT,
        "client_id": CLIENT,
        "code_verifier": VERIFIER,
    }
    return token_call(**{**form, **changes})


def as_app(owner: Client, reply: Reply) -> Client:
    assert reply.status == 200, reply.raw
    return Client(f"{owner.name}'s app", token=reply.body["access_token"], player_id=owner.player_id)


def assert_oauth_error(reply: Reply, error: str) -> None:
    assert reply.status == 400, reply.raw
    assert reply.headers["Content-Type"] == "application/json"
    assert reply.headers["Cache-Control"] == "no-store"
    assert reply.body["error"] == error
    assert reply.body["error_description"]


def test_the_metadata_names_the_endpoints_pkce_s256_and_the_grantable_scopes(aws: None) -> None:
    reply = call("GET", "/.well-known/oauth-authorization-server", headers={"Host": "api.example.org"})
    assert reply.status == 200, reply.raw
    meta = reply.body
    assert meta["issuer"] == "https://api.example.org"
    assert meta["authorization_endpoint"] == "https://api.example.org/oauth/authorize"
    assert meta["token_endpoint"] == "https://api.example.org/oauth/token"
    assert meta["response_types_supported"] == ["code"]
    assert meta["grant_types_supported"] == ["authorization_code", "refresh_token"]
    assert meta["code_challenge_methods_supported"] == ["S256"]
    assert meta["token_endpoint_auth_methods_supported"] == ["none"]
    assert "games:play" in meta["scopes_supported"]
    assert "account:owner" not in meta["scopes_supported"]


def test_authorize_sends_the_browser_to_the_consent_page_never_to_the_app(aws: None) -> None:
    reply = call("GET", "/oauth/authorize", query=ask())
    assert reply.status == 302, reply.raw
    where = urlsplit(reply.headers["Location"])
    assert where.path == "/"
    assert where.fragment.startswith("/authorize?")
    assert parse_qs(where.fragment.split("?", 1)[1]) == {k: [v] for k, v in ask().items()}
    evil = call("GET", "/oauth/authorize", query=ask(redirect_uri="https://evil.example/#x"))
    assert evil.status == 302
    assert evil.headers["Location"].startswith("/#/authorize?")


def test_the_consent_page_learns_the_request_in_words(players: list[Client]) -> None:
    reply = players[0].get("/oauth/consent", query=ask())
    assert reply.status == 200, reply.raw
    assert reply.body["client_id"] == CLIENT
    assert reply.body["redirect_uri"] == REDIRECT
    assert [s["scope"] for s in reply.body["scopes"]] == ["games:read", "games:play"]
    assert all(s["meaning"] for s in reply.body["scopes"])


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"redirect_uri": "http://evil.example/cb"}, "invalid_redirect_uri"),
        ({"client_id": "evil\u202egnp"}, "invalid_client_id"),
        ({"code_challenge_method": "plain"}, "pkce_s256_required"),
        ({"code_challenge": "abc"}, "invalid_code_challenge"),
        ({"scope": "games:read account:owner"}, "scope_not_grantable"),
    ],
)
def test_a_bad_request_is_refused_before_the_player_is_asked(
    players: list[Client], changes: dict[str, str], code: str
) -> None:
    assert_problem(players[0].get("/oauth/consent", query=ask(**changes)), 400, code)
    refused = players[0].post("/oauth/authorize", {**ask(**changes), "approve": True})
    assert_problem(refused, 400, code)


def test_refusing_sends_the_app_access_denied(players: list[Client]) -> None:
    reply = players[0].post("/oauth/authorize", {**ask(), "approve": False})
    assert reply.status == 200, reply.raw
    assert reply.body["redirect_to"] == f"{REDIRECT}?error=access_denied&state=st4te"


def test_only_the_players_own_session_approves(players: list[Client]) -> None:
    app = as_app(players[0], exchange(approve(players[0])))
    reply = app.post("/oauth/authorize", {**ask(), "approve": True})
    assert assert_problem(reply, 403, "insufficient_scope")["scope"] == "account:owner"
    assert_problem(call("GET", "/oauth/consent", query=ask()), 401, "missing_token")


def test_the_whole_dance_an_app_plays_within_its_scopes(players: list[Client]) -> None:
    ada = players[0]
    reply = exchange(approve(ada))
    assert reply.headers["Cache-Control"] == "no-store"
    tokens = reply.body
    assert tokens["token_type"] == "Bearer"
    assert tokens["expires_in"] == 3600
    assert tokens["scope"] == "games:read games:play"
    app = as_app(ada, reply)
    game_id = create_game(app)
    assert app.get(f"/games/{game_id}").status == 200
    renamed = call("PATCH", "/players/me", body={"name": "Mallory"}, headers=app.auth())
    assert assert_problem(renamed, 403, "insufficient_scope")["scope"] == "account:write"
    assert assert_problem(app.get("/players/me/export"), 403, "insufficient_scope")["scope"] == "account:read"
    assert assert_problem(app.get("/players/me/apps"), 403, "insufficient_scope")["scope"] == "account:owner"


def test_token_errors_are_rfc_6749_json(players: list[Client]) -> None:
    code = approve(players[0])
    assert_oauth_error(exchange(code, code_verifier=VERIFIER[:-1] + "l"), "invalid_grant")
    assert_oauth_error(exchange(code), "invalid_grant")  # used up by the wrong verifier
    code = approve(players[0])
    assert_oauth_error(exchange(code, redirect_uri=REDIRECT + "x"), "invalid_grant")
    code = approve(players[0])
    as_app(players[0], exchange(code))
    assert_oauth_error(exchange(code), "invalid_grant")  # replayed
    assert_oauth_error(token_call(grant_type="password", client_id=CLIENT), "unsupported_grant_type")
    assert_oauth_error(token_call(grant_type="authorization_code", client_id=CLIENT), "invalid_request")
    json_body = call("POST", "/oauth/token", body={"grant_type": "authorization_code"})
    assert_oauth_error(json_body, "invalid_request")
    twice = call("POST", "/oauth/token", headers=FORM, raw_body="grant_type=refresh_token&grant_type=x")
    assert_oauth_error(twice, "invalid_request")


def test_refresh_rotates_and_a_reused_one_revokes_the_app(players: list[Client]) -> None:
    first = exchange(approve(players[0])).body
    form = {"grant_type": "refresh_token", "client_id": CLIENT}
    second = token_call(**form, refresh_token=first["refresh_token"])
    assert second.status == 200, second.raw
    app = as_app(players[0], second)
    assert app.get("/players/me/games").status == 200
    assert_oauth_error(token_call(**form, refresh_token=first["refresh_token"]), "invalid_grant")
    assert_problem(app.get("/players/me/games"), 401, "invalid_token")
    assert_oauth_error(token_call(**form, refresh_token=second.body["refresh_token"]), "invalid_grant")
    assert players[0].get("/players/me/apps").body == {"apps": []}


def test_the_player_sees_and_revokes_apps_and_the_export_lists_them(players: list[Client]) -> None:
    ada = players[0]
    tokens = exchange(approve(ada)).body
    app = as_app(ada, exchange(approve(ada, client_id="Second app"), client_id="Second app"))
    assert app.get("/players/me/games").status == 200
    listed = ada.get("/players/me/apps").body["apps"]
    by_client = {a["client_id"]: a for a in listed}
    assert set(by_client) == {CLIENT, "Second app"}
    assert by_client[CLIENT]["scopes"] == ["games:read", "games:play"]
    assert by_client[CLIENT]["redirect_uri"] == REDIRECT
    assert by_client["Second app"]["last_used_at"] is not None
    exported = ada.get("/players/me/export")
    assert {a["client_id"] for a in exported.body["apps"]} == {CLIENT, "Second app"}
    secrets = [tokens["access_token"].split(".")[2], tokens["refresh_token"].split(".")[2]]
    assert not any(secret in exported.raw for secret in secrets)
    second = by_client["Second app"]["grant_id"]
    assert ada.delete(f"/players/me/apps/{second}").status == 204
    assert_problem(app.get("/players/me/games"), 401, "invalid_token")
    assert_problem(ada.delete(f"/players/me/apps/{second}"), 404, "app_not_found")
    assert [a["client_id"] for a in ada.get("/players/me/apps").body["apps"]] == [CLIENT]


def test_revoking_an_app_kills_the_code_it_was_given_and_kept_unused(players: list[Client]) -> None:
    ada = players[0]
    app = as_app(ada, exchange(approve(ada, client_id="App2"), client_id="App2"))
    kept = approve(ada, client_id="App2")
    (listed,) = ada.get("/players/me/apps").body["apps"]
    assert ada.delete(f"/players/me/apps/{listed['grant_id']}").status == 204
    assert_problem(app.get("/players/me/games"), 401, "invalid_token")
    assert_oauth_error(exchange(kept, client_id="App2"), "invalid_grant")
    assert ada.get("/players/me/apps").body == {"apps": []}


def test_a_new_consent_supersedes_the_codes_given_before_it(players: list[Client]) -> None:
    ada = players[0]
    wide = approve(ada, client_id="NApp", scope="games:read games:play webhooks:manage account:read")
    narrow = approve(ada, client_id="NApp", scope="games:read")
    reply = exchange(narrow, client_id="NApp")
    assert reply.status == 200, reply.raw
    assert reply.body["scope"] == "games:read"
    assert_oauth_error(exchange(wide, client_id="NApp"), "invalid_grant")
    (listed,) = ada.get("/players/me/apps").body["apps"]
    assert listed["scopes"] == ["games:read"]
    app = as_app(ada, reply)
    assert assert_problem(app.get("/players/me/export"), 403, "insufficient_scope")["scope"] == "account:read"


def test_erasing_the_account_removes_its_apps(players: list[Client]) -> None:
    app = as_app(players[1], exchange(approve(players[1])))
    assert players[1].delete("/players/me").status == 204
    assert_problem(app.get("/players/me/games"), 401, "invalid_token")


def test_an_apps_token_is_rate_limited_like_a_personal_token(
    players: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rates, "APP_TOKEN_PER_MINUTE", replace(rates.APP_TOKEN_PER_MINUTE, limit=2))
    app = as_app(players[0], exchange(approve(players[0])))
    assert app.get("/players/me/games").status == 200
    assert app.get("/players/me/games").status == 200
    limited = app.get("/players/me/games")
    assert_problem(limited, 429, "token_rate_limited")
    assert 0 < int(limited.headers["Retry-After"]) <= 60


def test_the_document_describes_the_oauth2_flow_and_each_routes_scope(aws: None) -> None:
    import json

    doc = json.loads(document(whole_api()))
    flow = doc["components"]["securitySchemes"]["oauth2"]["flows"]["authorizationCode"]
    assert flow["authorizationUrl"].endswith("oauth/authorize")
    assert flow["tokenUrl"].endswith("oauth/token")
    assert flow["refreshUrl"].endswith("oauth/token")
    assert "account:owner" not in flow["scopes"]
    assert flow["scopes"]["games:play"]
    move = doc["paths"]["/games/{game_id}/votes"]["post"]["security"]
    assert move == [{"bearerAuth": ["games:play"]}, {"oauth2": ["games:play"]}]
    assert doc["paths"]["/players/me/apps"]["get"]["security"] == [{"bearerAuth": ["account:owner"]}]
    token = doc["paths"]["/oauth/token"]["post"]
    assert "application/x-www-form-urlencoded" in token["requestBody"]["content"]
