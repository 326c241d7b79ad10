"""Web Push from the web client in Chromium against the local stack, encrypted and decrypted for real.

Headless Chromium has no push service: its `pushManager.subscribe` is made to fail as it does without
one, and the client then takes its subscription from the local stack's push receiver, which decrypts
what the API pushes (RFC 8291, VAPID-signed) and lists it at /_local/push. A player turns notifications
on, "your turn" arrives decrypted with the game's page; the receiver then answers 410 and the next push
removes the subscription; and the offer to turn them on comes after a move, never on arrival.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ..local_stack.test_local_serve import Served, start_serve, stop
from .web import PHONE, WebPlayer, api_call, chromium, screenshot

pytestmark = pytest.mark.browser

DOCS = Path(__file__).resolve().parents[2] / "docs"

NO_PUSH_SERVICE = """
if (window.PushManager) {
  PushManager.prototype.subscribe = () =>
    Promise.reject(new DOMException("Registration failed - push service not available", "AbortError"));
}
"""


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    running = start_serve(tmp_path_factory.mktemp("web-push"))
    try:
        yield running
    finally:
        assert stop(running.process) == 0, running.logs()


def call(api_url: str, method: str, path: str, token: str = "", body: Any = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(api_url + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            raw = response.read()
    except urllib.error.HTTPError as error:
        raise AssertionError(f"{method} {path}: {error.code} {error.read()!r}") from None
    return json.loads(raw) if raw else None


def eventually(what: Callable[[], Any], timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = what()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError("not within the time allowed")
        time.sleep(0.3)


def test_a_browser_subscribes_gets_its_turn_decrypted_loses_it_on_410_and_is_offered_after_a_move(
    stack: Served, tmp_path: Path
) -> None:
    api = stack.api_url
    with chromium() as browser:
        context = browser.new_context(viewport=PHONE, timezone_id="Europe/Paris")
        context.grant_permissions(["notifications"], origin=api)
        context.add_init_script(NO_PUSH_SERVICE)
        ada = WebPlayer("Ada", context, f"{api}/")
        ada.open(f"{api}/")
        ada.register()
        assert ada.page.locator("#push-offer").count() == 0  # nothing is asked on arrival

        ada.page.click("#notifications-link")
        ada.page.wait_for_selector("#push-toggle:not([disabled])")
        ada.page.click("#push-toggle")
        ada.page.wait_for_selector("#push-state:has-text('on in this browser')")
        # The settings start from the browser's time zone, and saving keeps it.
        assert ada.page.input_value("#notify-zone") == "Europe/Paris"
        # Rows only for the channels Ada has: this browser, no email confirmed, no phone app.
        assert ada.page.locator("#notify-web_push-your_turn").count() == 1
        assert ada.page.locator("#notify-email-your_turn, #notify-device_push-your_turn").count() == 0
        assert "The phone apps" not in ada.page.inner_text("#notify-form")
        ada.assert_accessible("notifications with this browser's row only")
        if os.environ.get("DIXIT_SHOOT"):
            screenshot(ada.page, DOCS / "web-notifications.png", "#notify-form")
        ada.page.click("#notify-save")
        ada.page.wait_for_selector("#notice:has-text('Saved')")
        assert api_call(api, "/players/me/notifications", ada.token)["time_zone"] == "Europe/Paris"
        # From now on this device tells every time in the zone saved there.
        zone = "() => Object.entries(localStorage).find(([k]) => k.endsWith(':zone'))?.[1] ?? null"
        assert ada.page.evaluate(zone) == "Europe/Paris"
        (stored,) = api_call(api, "/players/me/web-push", ada.token)["subscriptions"]
        assert "/_local/push/endpoints/" in stored["endpoint"]
        local_id = stored["endpoint"].rsplit("/", 1)[1]

        # A game of three: Ada hosts it, the others join by the API; someone owes Ada a turn soon.
        others = [call(api, "POST", "/players", body={"name": name}) for name in ("Bob", "Cy")]
        game_id = call(api, "POST", "/games", ada.token, {})["game_id"]
        for other in others:
            call(api, "POST", f"/games/{game_id}/join", other["token"])
        call(api, "POST", f"/games/{game_id}/start", ada.token)
        me = api_call(api, "/players/me", ada.token)["player_id"]
        teller = api_call(api, f"/games/{game_id}", ada.token)["round"]["storyteller_id"]
        tokens = {o["player_id"]: o["token"] for o in others}
        if teller != me:
            hand = api_call(api, f"/games/{game_id}", tokens[teller])["you"]["hand"]
            call(
                api,
                "POST",
                f"/games/{game_id}/clue",
                tokens[teller],
                {"card_id": hand[0]["card_id"], "clue": "a quiet storm"},
            )

        def your_turn() -> list[dict[str, Any]]:
            arrived = api_call(api, f"/_local/push?subscription={local_id}", "")
            return [m for m in arrived if m["payload"].get("kind") == "your_turn"]

        (message, *_) = eventually(your_turn)
        assert message["payload"]["url"] == f"/play/{game_id}"
        assert message["payload"]["game_id"] == game_id
        assert message["payload"]["title"] == "Your turn in Dixit"
        assert message["vapid"]["aud"] == api

        # The browser dropped the subscription: the push service answers 410, and the next push removes it.
        call(api, "DELETE", f"/_local/push/subscriptions/{local_id}")
        nudger = next(pid for pid in tokens if pid != me)
        call(api, "POST", f"/games/{game_id}/nudges", tokens[nudger])
        eventually(lambda: api_call(api, "/players/me/web-push", ada.token)["subscriptions"] == [])

        # The offer comes once Ada has moved, and "Not now" is remembered.
        ada.open(f"{api}/#/game/{game_id}")
        ada.page.wait_for_selector("#status[data-owes]")
        if ada.owes() == "clue":
            ada.give_clue("a lighthouse")
        else:
            ada.submit(2)
        ada.page.wait_for_selector("#push-offer")
        ada.page.click("#push-offer-no")
        ada.page.wait_for_selector("#push-offer", state="detached")
        assert ada.page.evaluate("() => localStorage.getItem('dixit:web-push-offer')") == "dismissed"

        # Signing out on this browser takes its subscription along: the next player here gets none of Ada's.
        token = ada.token
        ada.open(f"{api}/#/notifications")
        ada.page.click("#push-toggle:has-text('Turn on')")
        ada.page.wait_for_selector("#push-state:has-text('on in this browser')")
        assert len(api_call(api, "/players/me/web-push", token)["subscriptions"]) == 1
        ada.page.once("dialog", lambda dialog: dialog.accept())
        ada.page.click("text=Sign out")
        ada.page.wait_for_selector("#name")
        assert api_call(api, "/players/me/web-push", token)["subscriptions"] == []
        assert ada.errors == []
