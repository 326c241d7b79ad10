"""Two browsers at one table over the live channel, polling turned off (`?poll=off`): each sees the
other's moves within a second of the move's answer; closing one leaves the other live."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from ..local_stack.test_local_serve import Served, start_serve, stop
from .web import PHONE, WebPlayer, api_call, chromium, post_json

pytestmark = pytest.mark.browser

# A second is the promise (tests/e2e/test_e2e_live.py holds the socket to it: about 0.4 s on an idle
# 2-core machine); a browser adds its fetch and its drawing, and CI runs two test workers beside two
# Chromium contexts, so the page gets twice that. Polling is off: whatever shows came over the socket.
WITHIN_MS = 2_000


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    running = start_serve(tmp_path_factory.mktemp("browser-live"))
    try:
        yield running
    finally:
        assert stop(running.process) == 0, running.logs()


def shows_within_a_second(player: WebPlayer, phase: str, answered: float) -> float:
    player.page.wait_for_selector(f".game[data-phase={phase}]", timeout=WITHIN_MS)
    return time.monotonic() - answered


def test_two_browsers_see_each_others_moves_live_with_polling_off(stack: Served) -> None:
    api, client = stack.api_url, f"{stack.api_url}/?poll=off"
    with chromium() as browser:
        ada, bob = (WebPlayer(n, browser.new_context(viewport=PHONE), client) for n in ("Ada", "Bob"))
        for player in (ada, bob):
            player.open(client)
            player.register()
        cy = post_json(api, "/players", "", {"name": "Cy"})
        tokens = {"Ada": ada.token, "Bob": bob.token, "Cy": cy["token"]}
        created = post_json(api, "/games", tokens["Ada"], {"visibility": "private", "target_score": 10})
        game_id = created["game_id"]
        for name in ("Bob", "Cy"):
            post_json(api, f"/games/{game_id}/join", tokens[name], {"invite_code": created["invite_code"]})
        for player in (ada, bob):
            player.open(f"{client}#/game/{game_id}")
            player.page.wait_for_selector(".game[data-phase=lobby]")
            player.page.wait_for_selector("body[data-live=watching]")

        # Ada starts the game from her phone: Bob's screen follows within a second of her answer.
        ada.page.click("#start:not([disabled])")
        ada.page.wait_for_selector(".game[data-phase=storytelling]")
        answered = time.monotonic()
        shows_within_a_second(bob, "storytelling", answered)

        # The storyteller's clue, from whoever it is (through the API): both screens follow.
        view: dict[str, Any] = api_call(api, f"/games/{game_id}", tokens["Ada"])
        teller = next(
            n
            for n, t in tokens.items()
            if api_call(api, "/players/me", t)["player_id"] == view["round"]["storyteller_id"]
        )
        hand = api_call(api, f"/games/{game_id}", tokens[teller])["you"]["hand"]
        clued = post_json(
            api, f"/games/{game_id}/clue", tokens[teller], {"card_id": hand[0]["card_id"], "clue": "live"}
        )
        assert clued["phase"] == "submitting", clued
        answered = time.monotonic()
        for player in (ada, bob):
            shows_within_a_second(player, "submitting", answered)

        # Ada's phone leaves: Bob's stays live.
        ada.context.close()
        others = [n for n in tokens if n != teller]
        for name in others:
            cards = api_call(api, f"/games/{game_id}", tokens[name])["you"]["hand"][:2]
            answer = post_json(
                api,
                f"/games/{game_id}/submissions",
                tokens[name],
                {"card_ids": [c["card_id"] for c in cards]},
            )
        assert answer["phase"] == "voting", answer
        answered = time.monotonic()
        shows_within_a_second(bob, "voting", answered)
        assert bob.errors == []
