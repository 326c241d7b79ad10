"""The web client's account side in real browsers against the local stack: a player survives a lost phone.

Phone A registers and adds an email; phone B signs in with it through the mail's link (one tap: opening
the link spends nothing); both see the same game; A signs B out, and B's next request sends it to the
start screen; then the data download and the account's deletion, confirmed in the page.
"""

from __future__ import annotations

import json
import os
import urllib.error
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Request

from ..local_stack.test_local_serve import Served, start_serve, stop
from .account_flow import add_email, ask_sign_in, client_link, focused_id, open_account
from .web import PHONE, WebPlayer, api_call, chromium, in_view, post_json, run_together, screenshot

pytestmark = pytest.mark.browser

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    running = start_serve(tmp_path_factory.mktemp("account"))
    try:
        yield running
    finally:
        assert stop(running.process) == 0, running.logs()


def test_the_account_screen_renames_in_words_and_lists_this_device(stack: Served) -> None:
    with chromium() as browser:
        client = f"{stack.api_url}/"  # the local stack serves web/ itself
        ada = WebPlayer("Ada", browser.new_context(viewport=PHONE), client)
        ada.open(client)
        ada.register()
        open_account(ada)
        ada.page.wait_for_selector("li.session")
        assert ada.page.locator("li.session").count() == 1
        assert "this device" in ada.page.inner_text("li.session.current")
        assert ada.page.locator("#sign-out-others").count() == 0
        # The token lives here, under a heading that says what it is for (no longer under the games).
        assert ada.page.inner_text("#token-heading") == "Play from another device without email"
        ada.page.click("text=Show your token")
        assert ada.page.inner_text("#token") == ada.token
        ada.assert_accessible("the account with its token shown")
        if os.environ.get("DIXIT_SHOOT"):
            screenshot(ada.page, DOCS / "web-account-token.png", "#token-heading")
        # A name the API refuses: its problem in words, naming the field, never the machine code.
        ada.page.fill("#rename", "A" * 200)
        ada.page.click("#rename-send")
        ada.page.wait_for_selector("#error:not([hidden])")
        said = ada.page.inner_text("#error")
        assert said == "Your name is too long: at most 40 characters.", said
        ada.page.fill("#rename", "Ada L.")
        ada.page.click("#rename-send")
        ada.page.wait_for_selector("#notice:has-text('Ada L.')")
        assert ada.page.inner_text("#account-link") == "Ada L."
        assert api_call(stack.api_url, "/players/me", ada.token)["name"] == "Ada L."
        ada.open(client)
        ada.page.wait_for_selector("#my-games")
        assert ada.page.locator("details.token").count() == 0
        assert ada.errors == []


def test_a_second_phone_signs_in_by_the_mails_link_and_is_signed_out_from_the_first(stack: Served) -> None:
    address = "ada.lost.phone@example.org"
    with chromium() as browser:
        client = f"{stack.api_url}/"
        a = WebPlayer("Ada", browser.new_context(viewport=PHONE), client)
        b = WebPlayer("Ada", browser.new_context(viewport=PHONE), client)
        a.open(client)
        a.register()
        a.page.click("text=New game")
        a.page.click("text=Create game")
        a.page.wait_for_selector("#invite")
        game_id = a.game_id

        # A adds the email: focus goes to the code, a short code is refused in words, the mailed one verifies.
        a.open(client + "#/")
        open_account(a)
        code, _ = add_email(a, stack.api_url, address)
        assert focused_id(a) == "email-code"
        assert a.page.get_attribute("#email-code", "inputmode") == "numeric"
        assert a.page.get_attribute("#email-code", "autocomplete") == "one-time-code"
        a.page.fill("#email-code", code[:5])
        a.page.click("#email-code-send")
        assert a.page.inner_text("#error") == "The code has 6 digits; this has 5."
        a.page.fill("#email-code", code)
        a.page.click("#email-code-send")
        a.page.wait_for_selector("section[data-step=verified]")
        assert address in a.page.inner_text("#email-address")
        assert "verified" in a.page.inner_text("#email-address")
        assert api_call(stack.api_url, "/players/me", a.token)["email_verified"] is True

        # B asks for a code, then opens the mail's link: nothing is spent until the one tap.
        b.open(client)
        _, link = ask_sign_in(b, stack.api_url, address)
        assert focused_id(b) == "signin-code"
        assert link.startswith("#/sign-in/")
        verifies: list[Request] = []
        b.page.on("request", lambda r: verifies.append(r) if r.url.endswith("/sessions/verify") else None)
        b.open(client_link(client, link))
        b.page.wait_for_selector("#confirm-sign-in")
        assert f"Sign in as {address} on this device?" in b.page.inner_text("main")
        b.page.wait_for_load_state("networkidle")
        assert verifies == []
        b.page.click("#confirm-sign-in")
        b.page.wait_for_selector(f"a.game-link[href='#/game/{game_id}']")
        assert len(verifies) == 1
        assert (
            api_call(stack.api_url, "/players/me", b.token)["player_id"]
            == api_call(stack.api_url, "/players/me", a.token)["player_id"]
        )
        a.open(client + "#/")
        a.page.wait_for_selector(f"a.game-link[href='#/game/{game_id}']")

        # A sees both devices and signs B out; B's next request is a 401 and B lands on the start screen.
        open_account(a)
        a.page.wait_for_selector("li.session >> nth=1")
        assert a.page.locator("li.session").count() == 2
        assert a.page.locator("li.session.current").count() == 1
        a.page.click("li.session:not(.current) button:has-text('Sign out this device')")
        a.page.wait_for_function("() => document.querySelectorAll('li.session').length === 1")
        assert a.page.locator("#sign-out-others").count() == 0
        b.catch_up()
        b.page.wait_for_selector("#name")
        assert "signed out" in b.page.inner_text("#notice")
        assert b.page.evaluate("() => Object.keys(localStorage).some(k => k.endsWith(':token'))") is False
        assert a.errors == []
        assert b.errors == []


def test_the_verify_link_asks_for_the_device_where_the_player_plays(stack: Served) -> None:
    with chromium() as browser:
        client = f"{stack.api_url}/"
        stranger = WebPlayer("Cy", browser.new_context(viewport=PHONE), client)
        stranger.open(client + "#/verify-email/123456")
        stranger.page.wait_for_selector("h1:has-text('Confirm your email')")
        assert "where you play" in stranger.page.inner_text("main")
        assert stranger.page.locator("#confirm-email").count() == 0
        # Signed in, the same link waits for one tap.
        stranger.open(client)
        stranger.register()
        stranger.open(client + "#/verify-email/123456")
        stranger.page.wait_for_selector("#confirm-email")
        assert stranger.errors == []


def test_a_token_for_a_bot_is_made_shown_once_plays_only_its_scopes_and_is_revoked(stack: Served) -> None:
    with chromium() as browser:
        client = f"{stack.api_url}/"
        eve = WebPlayer("Eve", browser.new_context(viewport=PHONE), client)
        eve.open(client)
        eve.register()
        open_account(eve)
        eve.page.wait_for_selector("#personal-tokens >> text=You have made no token.")
        eve.page.fill("#token-name", "my bot")
        # Nothing ticked: the form says so in its words, where a phone far down the page sees it.
        for box in eve.page.query_selector_all("input[id^=scope-]"):
            box.uncheck()
        eve.page.click("#token-make")
        eve.page.wait_for_selector("#error:not([hidden])")
        assert eve.page.inner_text("#error") == "Tick at least one thing the token may do."
        assert in_view(eve.page, "#error")
        assert eve.focused_id() == "scope-games-read"
        assert in_view(eve.page, "#scope-games-read")  # the focused box, not under the error
        eve.page.check("#scope-games-read")
        eve.page.check("#scope-games-play")
        eve.page.click("#token-make")  # reading and playing, as ticked by default
        eve.page.wait_for_selector("#error", state="hidden")
        eve.page.wait_for_selector("li.personal-token")
        bot = eve.page.inner_text("#new-token-value")
        assert bot.startswith(f"{api_call(stack.api_url, '/players/me', eve.token)['player_id']}.t_")
        assert "my bot" in eve.page.inner_text("li.personal-token")
        assert run_together(eve.page, "li.personal-token") == []  # name, rights, last use, button
        eve.assert_accessible("the account with a personal token")
        assert api_call(stack.api_url, "/players/me/games", bot)["games"] == []
        refused = post_json(
            stack.api_url, "/players/me/personal-tokens", bot, {"name": "x", "scopes": ["games:read"]}
        )
        assert (refused["code"], refused["scope"]) == ("insufficient_scope", "account:owner")

        eve.page.click("li.personal-token button")
        eve.page.wait_for_selector("#personal-tokens >> text=You have made no token.")
        assert eve.page.inner_text("#new-token") == ""
        with pytest.raises(urllib.error.HTTPError) as revoked:
            api_call(stack.api_url, "/players/me/games", bot)
        assert revoked.value.code == 401
        assert eve.errors == []


def test_download_my_data_and_delete_my_account(stack: Served, tmp_path: Path) -> None:
    with chromium() as browser:
        client = f"{stack.api_url}/"
        dee = WebPlayer("Dee", browser.new_context(viewport=PHONE, accept_downloads=True), client)
        dee.open(client)
        dee.register()
        token = dee.token
        me = api_call(stack.api_url, "/players/me", token)
        open_account(dee)
        with dee.page.expect_download() as download:
            dee.page.click("#export")
        assert download.value.suggested_filename == "dixit-export.json"
        saved = tmp_path / "export.json"
        download.value.save_as(saved)
        assert me["player_id"] in json.dumps(json.loads(saved.read_text()))

        # A real confirmation in the page: the button stays off until the name is typed.
        dee.page.click("#delete-start")
        assert focused_id(dee) == "delete-name"
        assert dee.page.is_disabled("#delete-confirm")
        dee.page.fill("#delete-name", "dee")
        assert dee.page.is_disabled("#delete-confirm")
        dee.page.fill("#delete-name", "Dee")
        dee.page.click("#delete-confirm")
        dee.page.wait_for_selector("#name")
        assert "deleted" in dee.page.inner_text("#notice")
        with pytest.raises(urllib.error.HTTPError) as refused:
            api_call(stack.api_url, "/players/me", token)
        assert refused.value.code == 401
        assert dee.errors == []
