"""End to end over HTTP against `python -m local_stack serve`: a script acting as a third-party app signs
a player in with authorization code + PKCE, plays a whole game with a token scoped to playing, is
refused outside its scopes, refreshes (rotating), and stops the moment it is revoked; a replayed code, a
wrong verifier, a redirect URI one character off and a reused refresh token are all refused."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from ..api.client import Reply
from ..api.json_bot import play_to_the_end
from ..local_stack.test_local_serve import Served, start_serve, stop
from .test_e2e_http import HttpClient

CLIENT = "Table bot (e2e)"
REDIRECT = "http://127.0.0.1:8765/callback"


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # the script looks at the 302 itself


def _open(request: urllib.request.Request) -> Reply:
    opener = urllib.request.build_opener(_NoRedirects)
    try:
        with opener.open(request, timeout=30) as response:
            return Reply(response.status, dict(response.headers.items()), response.read().decode())
    except urllib.error.HTTPError as error:
        return Reply(error.code, dict(error.headers.items()), error.read().decode())


class App:
    """The third-party app: a verifier of its own, the code it is sent back, and its tokens."""

    def __init__(self, api_url: str) -> None:
        self.api_url = api_url
        self.verifier = secrets.token_urlsafe(48)
        digest = hashlib.sha256(self.verifier.encode()).digest()
        self.challenge = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
        self.state = secrets.token_urlsafe(8)

    def query(self) -> dict[str, str]:
        return {
            "response_type": "code",
            "client_id": CLIENT,
            "redirect_uri": REDIRECT,
            "scope": "games:read games:play",
            "state": self.state,
            "code_challenge": self.challenge,
            "code_challenge_method": "S256",
        }

    def authorize_url(self) -> str:
        return f"{self.api_url}/oauth/authorize?{urlencode(self.query())}"

    def code_from(self, redirect_to: str) -> str:
        assert redirect_to.startswith(REDIRECT + "?")
        got = parse_qs(urlsplit(redirect_to).query)
        assert got["state"] == [self.state]
        code: str = got["code"][0]
        return code

    def token(self, **form: str) -> Reply:
        request = urllib.request.Request(
            f"{self.api_url}/oauth/token",
            data=urlencode({"client_id": CLIENT, **form}).encode(),
            method="POST",
        )
        request.add_header("Content-Type", "application/x-www-form-urlencoded")
        return _open(request)

    def exchange(self, code: str, **changes: str) -> Reply:
        form = {"code": code, "redirect_uri": REDIRECT, "code_verifier": self.verifier, **changes}
        return self.token(grant_type="authorization_code", **form)

    def refresh(self, refresh_token: str) -> Reply:
        return self.token(grant_type="refresh_token", refresh_token=refresh_token)


def _approve(player: HttpClient, app: App) -> str:
    """What the consent page does when the player presses Allow: the API call from their own session."""
    reply = player.post("/oauth/authorize", {**app.query(), "approve": True})
    assert reply.status == 200, reply.raw
    return app.code_from(reply.body["redirect_to"])


def _refused(reply: Reply, error: str = "invalid_grant") -> None:
    assert reply.status == 400, reply.raw
    assert reply.body["error"] == error
    assert reply.headers["Cache-Control"] == "no-store"


def _status(client: HttpClient, method: str, path: str, body: Any = None) -> Reply:
    return client._send(method, path, body, headers=client.auth())


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    running = start_serve(tmp_path_factory.mktemp("e2e-oauth"))
    try:
        yield running
    finally:
        assert stop(running.process) == 0, running.logs()


def test_an_app_signs_a_player_in_plays_a_game_and_stops_when_revoked(stack: Served) -> None:
    base = stack.api_url
    ada, bob, cy = (HttpClient(name, base_url=base).register() for name in ("Ada", "Bob", "Cy"))
    app = App(base)

    # The metadata tells the app where to go; the authorize URL sends the browser to the consent page.
    meta = _open(urllib.request.Request(f"{base}/.well-known/oauth-authorization-server"))
    assert meta.body["authorization_endpoint"] == f"{base}/oauth/authorize"
    assert meta.body["code_challenge_methods_supported"] == ["S256"]
    sent = _open(urllib.request.Request(app.authorize_url()))
    assert sent.status == 302, sent.raw
    assert sent.headers["Location"].startswith(f"{base}/#/authorize?")  # make run: WEB_BASE_URL is its origin
    consent = ada.get("/oauth/consent?" + urlencode(app.query()))
    assert consent.status == 200, consent.raw
    assert consent.body["client_id"] == CLIENT

    # Refused: a wrong verifier (the code is used up with it), a replayed code, a redirect URI one off.
    _refused(app.exchange(_approve(ada, app), code_verifier=app.verifier[:-1] + "A"))
    _refused(app.exchange(_approve(ada, app), redirect_uri=REDIRECT[:-1]))
    code = _approve(ada, app)
    first = app.exchange(code)
    assert first.status == 200, first.raw
    _refused(app.exchange(code))
    tokens = first.body
    assert (tokens["token_type"], tokens["scope"]) == ("Bearer", "games:read games:play")

    # The app plays a whole game for Ada with its games:play token.
    player = HttpClient("Ada's app", token=tokens["access_token"], player_id=ada.player_id, base_url=base)
    created = player.post("/games", {"rules": "classic", "target_score": 3})
    assert created.status == 201, created.raw
    game_id = created.body["game_id"]
    for friend in (bob, cy):
        assert friend.post(f"/games/{game_id}/join", {}).status == 200
    assert player.post(f"/games/{game_id}/start", {}).status == 200
    final = play_to_the_end([player, bob, cy], game_id)
    assert final["phase"] == "finished"

    # Outside its scopes: 403 naming the scope.
    renamed = _status(player, "PATCH", "/players/me", {"name": "Mallory"})
    assert (renamed.status, renamed.body["scope"]) == (403, "account:write")
    exported = player.get("/players/me/export")
    assert (exported.status, exported.body["scope"]) == (403, "account:read")

    # Refresh rotates: the new tokens work, the old access token does not; the old refresh token used
    # again revokes the whole app.
    second = app.refresh(tokens["refresh_token"])
    assert second.status == 200, second.raw
    assert second.body["refresh_token"] != tokens["refresh_token"]
    assert player.get("/players/me/games").status == 401
    player.token = second.body["access_token"]
    assert player.get("/players/me/games").status == 200
    _refused(app.refresh(tokens["refresh_token"]))
    assert player.get("/players/me/games").status == 401
    _refused(app.refresh(second.body["refresh_token"]))

    # Approved again, then revoked by Ada: the token stops at once.
    again = app.exchange(_approve(ada, app))
    assert again.status == 200, again.raw
    player.token = again.body["access_token"]
    assert player.get("/players/me/games").status == 200
    (listed,) = ada.get("/players/me/apps").body["apps"]
    assert listed["client_id"] == CLIENT
    assert listed["last_used_at"] is not None
    assert _status(ada, "DELETE", f"/players/me/apps/{listed['grant_id']}").status == 204
    gone = player.get("/players/me/games")
    assert (gone.status, json.loads(gone.raw)["code"]) == (401, "invalid_token")
    _refused(app.refresh(again.body["refresh_token"]))
