"""The consent page in Chromium against the local stack: an app sends the signed-in player to
GET /oauth/authorize, the page shows the app, its rights in words and where the browser goes back, and
Allow sends the browser to the app with a code the app exchanges with its PKCE verifier. A request with
a redirect URI no app may use is shown as an error and never followed. The account screen then lists
the app, and Revoke stops its token at once.

`DIXIT_SHOOT=1` also saves the consent page to docs/web-oauth-consent.png, and the account screen's
apps to docs/web-account-apps.png.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from playwright.sync_api import Route

from ..local_stack.test_local_serve import Served, start_serve, stop
from .account_flow import open_account
from .web import PHONE, WebPlayer, chromium, run_together, screenshot

pytestmark = pytest.mark.browser

DOCS = Path(__file__).resolve().parents[2] / "docs"
CLIENT = "Friday table bot"
REDIRECT = "http://127.0.0.1:8765/callback"


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    running = start_serve(tmp_path_factory.mktemp("oauth"))
    try:
        yield running
    finally:
        assert stop(running.process) == 0, running.logs()


def _status(api_url: str, path: str, token: str) -> int:
    request = urllib.request.Request(api_url + path, headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def _exchange(api_url: str, code: str, verifier: str) -> dict[str, str]:
    form = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": REDIRECT,
        "client_id": CLIENT,
        "code_verifier": verifier,
    }
    request = urllib.request.Request(f"{api_url}/oauth/token", data=urlencode(form).encode(), method="POST")
    request.add_header("Content-Type", "application/x-www-form-urlencoded")
    with urllib.request.urlopen(request, timeout=30) as response:
        answer: dict[str, str] = json.loads(response.read())
        return answer


def test_a_player_allows_an_app_in_the_consent_page_then_revokes_it(stack: Served, tmp_path: Path) -> None:
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    query = {
        "response_type": "code",
        "client_id": CLIENT,
        "redirect_uri": REDIRECT,
        "scope": "games:read games:play",
        "state": "friday-42",
        "code_challenge": challenge,
        "code_challenge_method": "S256",
    }
    with chromium() as browser:
        client = f"{stack.api_url}/"
        ada = WebPlayer("Ada", browser.new_context(viewport=PHONE, device_scale_factor=2), client)
        ada.open(client)
        ada.register()

        # A redirect URI no app may use: an error on our own page, and the browser stays there.
        evil = {**query, "redirect_uri": "http://evil.example/steal"}
        ada.open(f"{stack.api_url}/oauth/authorize?{urlencode(evil)}")
        ada.page.wait_for_selector("#consent-refused")
        assert "not allowed" in ada.page.inner_text("#consent-problem")
        assert ada.page.url.startswith(f"{stack.api_url}/#/authorize?")
        assert ada.page.locator("#consent-approve").count() == 0

        # The app's link: the consent page names the app, its rights in words and where it goes back.
        arrived: list[str] = []

        def the_app(route: Route) -> None:
            arrived.append(route.request.url)
            route.fulfill(status=200, content_type="text/html", body="<title>Bot</title><p>Signed in.</p>")

        ada.page.route("http://127.0.0.1:8765/**", the_app)
        ada.open(f"{stack.api_url}/oauth/authorize?{urlencode(query)}")
        ada.page.wait_for_selector("#consent-approve")
        assert ada.page.inner_text("#consent-client") == CLIENT
        assert ada.page.inner_text("#consent-redirect") == REDIRECT
        rights = ada.page.locator("#consent-scopes li")
        assert [rights.nth(i).get_attribute("data-scope") for i in range(rights.count())] == [
            "games:read",
            "games:play",
        ]
        assert "play games" in ada.page.inner_text("#consent-scopes")
        ada.assert_accessible("the consent page")
        screenshot(ada.page, tmp_path / "consent.png")
        if os.environ.get("DIXIT_SHOOT"):
            screenshot(ada.page, DOCS / "web-oauth-consent.png")

        ada.page.click("#consent-approve")
        ada.page.wait_for_url("http://127.0.0.1:8765/**")
        (back,) = arrived
        got = parse_qs(urlsplit(back).query)
        assert got["state"] == ["friday-42"]
        tokens = _exchange(stack.api_url, got["code"][0], verifier)
        assert tokens["scope"] == "games:read games:play"
        assert _status(stack.api_url, "/players/me/games", tokens["access_token"]) == 200
        assert _status(stack.api_url, "/players/me", tokens["access_token"]) == 403

        # The account screen lists the app beside the personal tokens; Revoke stops it at once.
        ada.open(client)
        ada.page.wait_for_selector("#account-link")
        open_account(ada)
        ada.page.wait_for_selector("li.app-grant")
        assert CLIENT in ada.page.inner_text("li.app-grant")
        # Its name, rights, last use, date and button each on a line of their own, not run together.
        assert run_together(ada.page, "li.app-grant") == []
        screenshot(ada.page, tmp_path / "apps.png", "#apps-heading")
        if os.environ.get("DIXIT_SHOOT"):
            screenshot(ada.page, DOCS / "web-account-apps.png", "#apps-heading")
        ada.page.click(f"li.app-grant button[aria-label='Revoke {CLIENT}']")
        ada.page.wait_for_selector("text=You have let no app act for you.")
        assert _status(stack.api_url, "/players/me/games", tokens["access_token"]) == 401
        assert ada.errors == []

        # A player not yet signed in on this device starts on the start screen, then comes back to it.
        bob = WebPlayer("Bob", browser.new_context(viewport=PHONE), client)
        bob.open(f"{stack.api_url}/oauth/authorize?{urlencode(query)}")
        bob.register()
        bob.page.wait_for_selector("#consent-approve")
        assert bob.page.inner_text("#consent-client") == CLIENT
        assert bob.errors == []
