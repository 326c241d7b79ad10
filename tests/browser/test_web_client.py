"""The reference web client (web/) in a real browser against the local stack: three phones, one game."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from ..test_local_serve import Served, start_serve, stop
from .web import PHONE, WebPlayer, api_call, chromium, hands, play_to_the_end, static_site

pytestmark = pytest.mark.browser

CARD_ALT = re.compile(r"card \d+ of \d+ in your hand|table card \d+")


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    running = start_serve(tmp_path_factory.mktemp("browser"))
    try:
        yield running
    finally:
        assert stop(running.process) == 0, running.logs()


def alt_texts(player: WebPlayer) -> list[str]:
    return player.page.eval_on_selector_all("main img", "imgs => imgs.map(i => i.alt)")


def test_three_players_play_a_whole_game_in_three_browsers_and_no_page_shows_another_hand(
    stack: Served,
) -> None:
    with static_site() as site, chromium() as browser:
        client = f"{site}/index.html?api={stack.api_url}"
        players = [
            WebPlayer(name, browser.new_context(viewport=PHONE), client) for name in ("Ada", "Bob", "Cy")
        ]
        ada, bob, cy = players
        ada.open(client)
        ada.register()
        link = ada.create_game(target_score=2, private=True)
        game_id = ada.game_id
        invite_code = api_call(stack.api_url, f"/games/{game_id}", ada.token)["invite_code"]
        assert link.endswith(f"#/join/{game_id}/{invite_code}")

        bob.join_by_link(link)
        cy.join_by_link(link)
        ada.catch_up()
        ada.start()

        held = hands(stack.api_url, game_id, players)
        player_ids = {api_call(stack.api_url, "/players/me", p.token)["player_id"] for p in players}
        for player in players:
            player.catch_up()
            player.page.wait_for_selector("ul.cards.hand .tile")
            # The check below could not catch a leak if a page never showed card ids at all: its own do show.
            assert all(card in player.html() for card in held[player.name])
            assert player.hand_tiles() == len(held[player.name]) == 7

        def nothing_names_an_owner(move: str, acting: WebPlayer) -> None:
            for player in players:
                assert all(CARD_ALT.fullmatch(alt) for alt in alt_texts(player)), alt_texts(player)
                html = player.html()
                assert not [pid for pid in player_ids if pid in html], "player ids in the DOM"

        final = play_to_the_end(stack.api_url, players, after_move=nothing_names_an_owner)

        rounds = api_call(stack.api_url, f"/games/{game_id}/rounds", ada.token)["rounds"]
        winners = {p["name"] for p in final["players"] if p["player_id"] in final["winners"]}
        for player in players:
            player.catch_up()
            player.page.wait_for_selector(".game[data-phase=finished]")
            headline = player.page.inner_text("#winner")
            if winners == {player.name}:
                assert headline == "You win!"
            else:
                assert all(name in headline for name in winners - {player.name}), headline
            if final.get("end_reason"):
                assert player.page.inner_text("#end-reason")
            # The last reveal names who played and who voted, and the history holds every round.
            last_cards = final["last_round"]["cards"]
            assert player.page.locator("section.reveal ul.results li strong").count() == len(last_cards)
            assert player.page.locator("section.reveal li.story .badge").inner_text() == "Storyteller"
            player.page.click("summary:has-text('Round history')")
            player.page.wait_for_selector("details.history section.reveal")
            assert player.page.locator("details.history section.reveal").count() == len(rounds)
            assert player.errors == []

        # Back to the inbox and into the game again: both screens draw from the cached answer on a 304.
        ada.page.click("text=Back to your games")
        ada.page.click(f"a.game-link[href='#/game/{game_id}']")
        ada.page.wait_for_selector(".game[data-phase=finished] #winner")
        ada.page.click("text=Back to your games")
        ada.page.wait_for_selector(f"a.game-link[href='#/game/{game_id}']")
