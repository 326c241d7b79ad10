"""The web client served by the local stack itself: links from mails (/play/{id}?card=), the join preview of
a full and of a started game, the clue counter and the Nudge button, each page scanned by axe-core."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from ..local_stack.test_local_serve import Served, start_serve, stop
from .web import PHONE, WebPlayer, api_call, chromium

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    running = start_serve(tmp_path_factory.mktemp("browser-links"))
    try:
        yield running
    finally:
        assert stop(running.process) == 0, running.logs()


def test_links_previews_the_clue_counter_and_nudges_through_the_stacks_own_client(stack: Served) -> None:
    with chromium() as browser:
        client = f"{stack.api_url}/"
        names = ("Ada", "Bob", "Cy", "Dee")
        ada, bob, cy, dee = (WebPlayer(n, browser.new_context(viewport=PHONE), client) for n in names)
        for player in (ada, bob, cy, dee):
            player.open(client)
            player.register()
        ada.page.click("text=New game")
        ada.page.wait_for_selector("#decks input[value=base]")
        # Only one's own ready decks can be added by id; an official one is listed already, and says so.
        ada.page.fill("#own-deck", "base")
        ada.page.press("#own-deck", "Enter")
        ada.page.wait_for_selector("#error:not([hidden])")
        assert "official decks" in ada.page.inner_text("#error")
        assert ada.page.locator("form#create").count() == 1
        ada.assert_accessible("new game form")
        ada.page.fill("#seats", "3")
        ada.page.click("text=Create game")
        ada.page.wait_for_selector("#invite")
        link = ada.page.input_value("#invite")
        assert link.startswith(client)
        game_id = ada.game_id
        bob.join_by_link(link, register=False)
        cy.join_by_link(link, register=False)

        # A full lobby says so before any tap, and offers no Join button.
        dee.open(link)
        dee.page.wait_for_selector("#preview-verdict")
        assert dee.page.inner_text("#preview-verdict") == "This game is full: every seat is taken."
        assert dee.page.locator("#join").count() == 0
        dee.assert_accessible("full game preview")

        ada.catch_up()
        ada.start()
        dee.open(client + "#/")
        dee.open(link)
        dee.page.wait_for_selector("#preview-verdict")
        assert "already started" in dee.page.inner_text("#preview-verdict")

        players = {api_call(stack.api_url, "/players/me", p.token)["player_id"]: p for p in (ada, bob, cy)}
        game = api_call(stack.api_url, f"/games/{game_id}", ada.token)
        teller = players[game["round"]["storyteller_id"]]
        teller.catch_up()
        teller.page.wait_for_selector("#status[data-owes=clue]")
        # The clue field counts, and says so at the limit instead of cutting the clue in silence.
        teller.page.fill("#clue", "a" * 250)
        counter = teller.page.inner_text("#clue-count")
        assert counter.startswith("200 of 200 characters"), counter
        assert "as long as a clue can be" in counter
        teller.assert_accessible("clue at its limit")
        teller.give_clue("a quiet storm")

        # A mail's link opens the game at the owed move with the card chosen, and sends nothing.
        guest = next(p for pid, p in players.items() if p is not teller)
        hand = api_call(stack.api_url, f"/games/{game_id}", guest.token)["you"]["hand"]
        card = hand[2]["card_id"]
        guest.open(f"{stack.api_url}/play/{game_id}?card={card}")
        guest.page.wait_for_selector("#status[data-owes=submit]")
        assert f"#/game/{game_id}" in guest.page.url
        guest.page.wait_for_selector("#hand-3.chosen")
        assert guest.page.locator(".tile.chosen").count() == 1
        after = api_call(stack.api_url, f"/games/{game_id}", guest.token)
        assert after["you"]["submitted"] == []
        assert after["version"] == game["version"] + 1  # the clue only
        guest.assert_accessible("opened from a link")
        # The enlarged card reads its description, in the image's alt and under the picture.
        guest.page.click("#hand-1")
        guest.page.wait_for_selector("#zoom[open]")
        assert guest.page.get_attribute("#zoom-img", "alt") == hand[0]["alt"]
        assert guest.page.inner_text("#zoom-alt") == hand[0]["alt"]
        guest.assert_accessible("a card enlarged")
        # The dialog's own button: a card's description may say "close" too (a hooded figure seen up close).
        guest.page.click("#zoom button[value=close]")
        guest.page.wait_for_selector("#zoom", state="hidden")

        # The storyteller waits on the others: seconds into a 48-hour move a nudge is not fair yet, and the
        # status says from when it is (12 hours in). Once the phone's clock is past that, Nudge reminds
        # them, and says truthfully that these players, with no email nor push, cannot be reached; a second
        # nudge is told how long to wait.
        teller.catch_up()
        teller.page.wait_for_selector("#nudge-later")
        assert teller.page.locator("#nudge").count() == 0
        assert "You can nudge" in teller.page.inner_text("#nudge-later")
        teller.page.clock.set_fixed_time(datetime.now(UTC) + timedelta(hours=13))
        teller.catch_up()
        teller.page.click("#nudge")
        notice = "(text) => document.getElementById('notice').textContent.includes(text)"
        unreachable = "no way to be reached; they will see it when they open the game"
        teller.page.wait_for_function(notice, arg=unreachable)
        teller.page.click("#nudge")
        teller.page.wait_for_function(notice, arg="short while")
        assert "You can nudge again in" in teller.notice()
        assert teller.page.locator("#error:not([hidden])").count() == 0
        teller.assert_accessible("after a nudge")
        for player in (ada, bob, cy, dee):
            assert player.errors == []
