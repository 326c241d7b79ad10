"""The reference web client (web/) in a real browser against the local stack: three phones, one game."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Route

from ..local_stack.test_local_serve import Served, start_serve, stop
from .web import PHONE, WebPlayer, api_call, chromium, hands, play_to_the_end, settled_rounds, static_site

pytestmark = pytest.mark.browser

# What the alt text was before cards had descriptions: a position, which tells a blind player nothing.
POSITION_ONLY = re.compile(
    r"(?i)(the )?(card \d+ of \d+ in your hand|table card \d+|card \d+ of the \d+ you played|card you played)"
)
ALTS = "imgs => imgs.map(i => i.alt)"
NEXT_CONTROL = "() => document.activeElement.matches('.tile, #send, #clue, #nudge')"
ACKS = {"clue": "Your clue is told", "submit": "on the table, face down", "vote": "Your vote is in"}


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
        ada.page.wait_for_selector("text=New game")
        ada.assert_accessible("empty games list")
        ada.page.click("text=New game")
        ada.page.wait_for_selector("#decks input[value=base]")
        ada.assert_accessible("new game form")
        ada.page.click("text=Back to your games")
        link = ada.create_game(target_score=2, private=True, title="Tuesday game")
        # Back after Create goes to the games list, not to a filled form that would create a second game.
        ada.page.go_back()
        ada.page.wait_for_selector("#my-games")
        assert ada.page.locator("form#create").count() == 0
        ada.page.go_forward()
        ada.page.wait_for_selector("#invite")
        game_id = ada.game_id
        invite_code = api_call(stack.api_url, f"/games/{game_id}", ada.token)["invite_code"]
        assert link.endswith(f"#/join/{game_id}/{invite_code}")

        ada.assert_accessible("lobby")
        # A notice goes away with the next move: "copied" must not still be there once the game starts.
        ada.context.grant_permissions(["clipboard-read", "clipboard-write"])
        ada.page.click("#invite ~ button:has-text('Copy')")
        ada.page.wait_for_function("() => document.getElementById('notice').textContent.includes('copied')")

        # The join page previews the game, with no call that answers 403.
        statuses: list[int] = []
        bob.page.on("response", lambda r: statuses.append(r.status))
        bob.open(link)
        bob.register()
        bob.page.wait_for_selector("#preview dl.facts")
        preview = bob.page.inner_text("#preview")
        assert "Tuesday game" in preview
        assert "Ada" in preview
        assert "someone reaches 2 points" in preview
        assert "Classic" in preview
        assert "Free seats" in preview
        bob.assert_accessible("join preview")
        assert 403 not in statuses, statuses
        bob.page.click("#join")
        bob.page.wait_for_selector("text=Waiting for the host to start the game.")

        # A wrong invite code: the page says so plainly, in words, and offers no Join button.
        cy.open(link.rsplit("/", 1)[0] + "/not-the-code")
        cy.register()
        cy.page.wait_for_selector("#preview-verdict")
        assert cy.page.inner_text("#preview-verdict") == (
            "That invite link is not right for this game. Ask the host for the link again."
        )
        assert cy.page.locator("#join").count() == 0
        cy.join_by_link(link, register=False)
        ada.catch_up()
        ada.start()
        ada.page.wait_for_function("() => !document.getElementById('notice').textContent.includes('copied')")

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
                alts = alt_texts(player)
                assert alts
                assert not [a for a in alts if POSITION_ONLY.fullmatch(a)], alts
                # Once the API describes a card (`alt`), the page's alt text is that description: the acting
                # page, drawn from the move's answer, shows the hand the API holds now.
                if player is acting:
                    hand = api_call(stack.api_url, f"/games/{game_id}", player.token)["you"]["hand"]
                    described = sorted(c["alt"] for c in hand if c.get("alt"))
                    shown = player.page.eval_on_selector_all("ul.cards.hand img", ALTS)
                    if described and player.phase() != "finished":
                        assert sorted(shown) == described, (shown, described)
                html = player.html()
                assert not [pid for pid in player_ids if pid in html], "player ids in the DOM"

        scanned: set[str] = set()
        # Starting is Ada's own move: its acknowledgement may stand until someone else moves.
        last_ack: dict[str, str] = {ada.name: ada.notice()}

        def acknowledged(move: str, acting: WebPlayer) -> None:
            # The move is acknowledged in words, focus lands on the status, and what was played shows.
            acting.page.wait_for_function(
                "(text) => document.getElementById('notice').textContent.includes(text)", arg=ACKS[move]
            )
            assert acting.focused_id() == ("winner" if acting.phase() == "finished" else "status-line")
            if move in ("clue", "submit") and acting.phase() != "voting":
                assert acting.page.locator("section.played .tile").count() >= 1
            if move == "vote" and acting.phase() == "voting":
                assert "You voted for table card" in acting.page.inner_text("#your-votes")
            last_ack[acting.name] = acting.notice()
            # On the keyboard alone, the next control is a Tab or two away, not 6 to 25.
            if acting.keyboard_only and acting.phase() != "finished":
                for _ in range(3):
                    acting.page.keyboard.press("Tab")
                    if acting.page.evaluate(NEXT_CONTROL):
                        break
                else:
                    raise AssertionError(f"3 Tabs from the status reach {acting.focused_id()}")

        # The first submission reaches the server, but its answer is lost on the way back: the client must
        # retry with the same Idempotency-Key, and the server must replay the first answer instead of
        # refusing cards that are no longer in the player's hand.
        keys: list[str | None] = []
        rerouted: list[WebPlayer] = []

        def lose_the_first_answer(route: Route) -> None:
            keys.append(route.request.headers.get("idempotency-key"))
            if len(keys) == 1:
                route.fetch()
                route.abort()
            else:
                route.continue_()

        def before(move: str, acting: WebPlayer) -> None:
            # axe-core once in every phase, on the page of the player who owes the move.
            if move not in scanned:
                scanned.add(move)
                acting.assert_accessible(f"{move} owed")
            # No stale notice: once anyone else has moved, the last acknowledgement on this page is gone (it
            # stays only when this player's own move is what brought their next one).
            assert acting.notice() in ("", last_ack.get(acting.name, "")), acting.notice()
            if move == "submit" and not rerouted:
                rerouted.append(acting)
                acting.page.route("**/submissions", lose_the_first_answer)

        def after(move: str, acting: WebPlayer) -> None:
            if rerouted == [acting]:
                # The live channel may show the submission applied before the client's own retry goes
                # (the server did apply it; only its answer was lost): keep listening for that retry.
                for _ in range(100):
                    if len(keys) >= 2:
                        break
                    acting.page.wait_for_timeout(100)
                acting.page.unroute("**/submissions")
            acknowledged(move, acting)
            nothing_names_an_owner(move, acting)

        bob.keyboard_only = True  # Bob never touches the mouse
        final = play_to_the_end(stack.api_url, players, before_move=before, after_move=after)
        assert len(keys) == 2
        assert keys[0]
        assert keys[1] == keys[0]

        rounds = settled_rounds(stack.api_url, game_id, ada.token, final["last_round"]["number"])
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

        ada.assert_accessible("game over")
        # The games list names the game (its title, its players) and its winner.
        ada.page.click("text=Back to your games")
        item = ada.page.locator(f"li[data-game='{game_id}']")
        item.wait_for()
        listed = item.inner_text()
        assert "Tuesday game" in listed, listed
        assert "With Bob and Cy" in listed, listed
        assert re.search(r"Game over: .*(won|shared the win)", listed), listed
        assert game_id[:8] not in listed
        ada.assert_accessible("games list")

        # Back into the game again: both screens draw from the cached answer on a 304.
        ada.page.click(f"a.game-link[href='#/game/{game_id}']")
        ada.page.wait_for_selector(".game[data-phase=finished] #winner")
        ada.page.click("text=Back to your games")
        ada.page.wait_for_selector(f"a.game-link[href='#/game/{game_id}']")
