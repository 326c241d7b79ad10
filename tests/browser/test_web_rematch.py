"""A finished game's players open its rematch from the game-over screen, and land in one lobby together."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from dixit_bots.api import HttpTransport, Player
from dixit_bots.game import new_table, play

from ..local_stack.test_local_serve import Served, start_serve, stop
from .web import PHONE, WebPlayer, api_call, chromium, screenshot

pytestmark = pytest.mark.browser

DOCS = Path(__file__).resolve().parents[2] / "docs"


def shoot(player: WebPlayer, name: str, selector: str | None = None) -> None:
    """With DIXIT_SHOOT=1, the screen into docs/ (the web client's pictures)."""
    if os.environ.get("DIXIT_SHOOT"):
        screenshot(player.page, DOCS / f"web-{name}.png", selector)


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    running = start_serve(tmp_path_factory.mktemp("browser-rematch"))
    try:
        yield running
    finally:
        assert stop(running.process) == 0, running.logs()


def test_two_players_of_a_finished_game_open_its_rematch_and_are_seated_in_the_same_lobby(
    stack: Served,
) -> None:
    with chromium() as browser:
        client = f"{stack.api_url}/"
        ada, bob, cy = (
            WebPlayer(n, browser.new_context(viewport=PHONE, device_scale_factor=2), client)
            for n in ("Ada", "Bob", "Cy")
        )
        for player in (ada, bob, cy):
            player.open(client)
            player.register()
        # The game itself is played through the API by bots holding the phones' own tokens.
        bots = [
            Player(HttpTransport(stack.api_url), p.name, token=p.token, player_id=me["player_id"])
            for p in (ada, bob, cy)
            for me in [api_call(stack.api_url, "/players/me", p.token)]
        ]
        table = new_table(bots, {"rules": "classic", "target_score": 3})
        final = play(table, random.Random(3))
        assert final["phase"] == "finished"

        ada.open(f"{client}#/game/{table.game_id}")
        ada.page.wait_for_selector(".game[data-phase=finished] #rematch")
        ada.assert_accessible("game over with its rematch button")
        ada.page.click("#rematch")
        ada.page.wait_for_selector(".game[data-phase=lobby] #invite")
        lobby_id = ada.game_id
        assert lobby_id == final["rematch_game_id"]
        assert "rematch lobby" in ada.notice()

        # Bob's end screen says who opened it and joins it in one tap.
        bob.open(f"{client}#/game/{table.game_id}")
        bob.page.wait_for_selector("#rematch-news")
        assert bob.page.inner_text("#rematch-news") == "Ada opened a rematch. Ada is in. Join with one tap."
        assert bob.page.inner_text("#rematch") == "Join Ada's rematch"
        bob.assert_accessible("game over with a rematch opened by another player")
        shoot(bob, "rematch-end")
        bob.page.click("#rematch")
        bob.page.wait_for_selector(".game[data-phase=lobby]")
        assert bob.game_id == lobby_id

        # Cy finds it in the games list, under the finished game, and joins from there.
        cy.open(client)
        cy.page.wait_for_selector(f"[data-rematch='{table.game_id}']")
        row = cy.page.inner_text(f"li[data-game='{table.game_id}'] .rematch-row")
        assert "Ada opened a rematch. Ada and Bob are in." in row
        cy.assert_accessible("games list with a rematch to join")
        shoot(cy, "rematch-list", f"li[data-game='{table.game_id}']")
        cy.page.click(f"[data-rematch='{table.game_id}']")
        cy.page.wait_for_selector(".game[data-phase=lobby]")
        assert cy.game_id == lobby_id
        lobby = api_call(stack.api_url, f"/games/{lobby_id}", ada.token)
        assert sorted(p["name"] for p in lobby["players"]) == ["Ada", "Bob", "Cy"]
        assert ada.errors == bob.errors == cy.errors == []
