"""Table talk in the web client: three phones chat in the lobby, a message sent as the clue lands is refused
and the panel says when talk opens again, reactions on the reveal, mute and block from a name, and a
message the host hid shown as hidden. With DIXIT_SHOOT=1 it photographs the panel into docs/."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dixit_bots.api import HttpTransport, Player
from dixit_bots.strategy import choose

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
    running = start_serve(tmp_path_factory.mktemp("browser-talk"))
    try:
        yield running
    finally:
        assert stop(running.process) == 0, running.logs()


def say(player: WebPlayer, text: str) -> None:
    player.page.fill("#talk-text", text)
    player.page.click("#talk-send:not([disabled])")
    player.page.wait_for_selector(f"#talk-lines li.mine >> text={text}")


def sees(player: WebPlayer, text: str) -> None:
    player.catch_up()
    player.page.wait_for_selector(f"#talk-lines >> text={text}")


def lines(player: WebPlayer) -> list[str]:
    texts: list[str] = player.page.eval_on_selector_all(
        "#talk-lines .talk-text", "els => els.map(e => e.textContent)"
    )
    return texts


def move_all(bots: dict[str, Player], game_id: str, rng: random.Random) -> dict[str, Any]:
    """Every seat the game waits on moves once, through the API; the game as it is then."""
    watcher = next(iter(bots.values()))
    view = watcher.view(game_id)
    for player_id in view["round"]["waiting_for"]:
        picked = choose(bots[player_id].view(game_id), rng, ("a quiet door",))
        assert picked is not None
        route, body = picked
        bots[player_id].expect(route, "POST", f"/games/{game_id}/{route}", body)
    return watcher.view(game_id)


def test_three_players_talk_in_the_lobby_and_the_panel_keeps_dixits_secrecy(stack: Served) -> None:
    with chromium() as browser:
        client = f"{stack.api_url}/"
        ada, bob, cy = (
            WebPlayer(n, browser.new_context(viewport=PHONE, device_scale_factor=2), client)
            for n in ("Ada", "Bob", "Cy")
        )
        ada.open(client)
        ada.register()
        link = ada.create_game(target_score=30, title="Friday family game")
        bob.join_by_link(link)
        cy.join_by_link(link)
        game_id = ada.game_id

        # The lobby: all three talk, and each sees the others' words, newest at the bottom.
        ada.catch_up()
        say(ada, "Welcome, both of you!")
        sees(bob, "Welcome, both of you!")
        say(bob, "Thanks <b>Ada</b>")
        sees(cy, "Thanks <b>Ada</b>")
        say(cy, "Ready when you are")
        sees(ada, "Ready when you are")
        assert lines(ada) == ["Welcome, both of you!", "Thanks <b>Ada</b>", "Ready when you are"]
        # Text, never markup: the tag a player typed is shown as typed, and makes no element.
        assert ada.page.locator("#talk-lines b").count() == 0
        ada.assert_accessible("the lobby's table talk")

        # Mute from a name: Cy's words vanish for Ada alone.
        ada.page.click("#talk-lines button.talk-who >> text=Cy")
        ada.page.click("text=Mute Cy")
        ada.page.wait_for_selector("#talk-lines >> text=Ready when you are", state="detached")
        sees(bob, "Ready when you are")  # the others still read her
        ada.page.click("#talk-people summary")
        ada.page.click("text=Unmute Cy")
        ada.page.wait_for_selector("#talk-lines >> text=Ready when you are")

        ada.start()
        bots = {
            me["player_id"]: Player(
                HttpTransport(stack.api_url), p.name, token=p.token, player_id=me["player_id"]
            )
            for p in (ada, bob, cy)
            for me in [api_call(stack.api_url, "/players/me", p.token)]
        }
        pages = {pid: p for pid, p in zip(bots, (ada, bob, cy), strict=True)}
        game = api_call(stack.api_url, f"/games/{game_id}", ada.token)
        teller_id = game["round"]["storyteller_id"]
        talker = next(p for pid, p in pages.items() if pid != teller_id)

        # The storyteller's turn is open: a guest starts a word ... and the clue lands before it is sent.
        talker.catch_up()
        talker.page.wait_for_selector(".game[data-phase=storytelling]")
        talker.page.wait_for_selector("#talk-text:not([disabled])")
        talker.page.fill("#talk-text", "mine will be the one with the cat")
        teller = bots[teller_id]
        view = teller.view(game_id)
        route, body = choose(view, random.Random(1), ("a quiet door",)) or ("", {})
        teller.expect(route, "POST", f"/games/{game_id}/{route}", body)
        talker.page.click("#talk-send")
        closed = talker.page.wait_for_selector("#talk-closed:not([hidden])")
        assert closed.text_content().startswith("Not sent. Talk opens again at the reveal")
        assert talker.page.is_disabled("#talk-text")
        assert talker.page.input_value("#talk-text") == "mine will be the one with the cat"  # kept for later
        assert "mine will be the one with the cat" not in str(
            api_call(stack.api_url, f"/games/{game_id}/messages", talker.token)
        )
        talker.assert_accessible("talk closed while cards are chosen")
        shoot(talker, "talk-closed", "#talk")

        # The reveal opens talk again; the others' reactions show on the panel, counted.
        rng = random.Random(2)
        game = move_all(bots, game_id, rng)  # submissions
        game = move_all(bots, game_id, rng)  # votes: the reveal
        assert game["last_round"]["number"] == 1
        others = [p for p in (ada, bob, cy) if p is not talker]
        for pid, page in pages.items():
            if page is not talker:
                bots[pid].expect("react", "PUT", f"/games/{game_id}/reactions/round-1", {"reaction": "laugh"})
        talker.catch_up()
        talker.page.wait_for_selector("#talk-text:not([disabled])")
        talker.page.wait_for_selector("#talk-reactions button[data-reaction=laugh] >> text=Ha ha 2")
        talker.page.click("#talk-reactions button[data-reaction=wow]")
        talker.page.wait_for_selector("#talk-reactions button[data-reaction=wow][aria-pressed=true]")
        say(talker, "I knew the door was yours!")
        talker.assert_accessible("talk open again after the reveal, with reactions")
        shoot(talker, "talk", "#talk")

        # A report from a name, and the host hides the message: shown as hidden, its words gone.
        reporter = others[0]
        said = next(
            m["message_id"]
            for m in api_call(stack.api_url, f"/games/{game_id}/messages", reporter.token)["messages"]
            if m["text"] == "I knew the door was yours!"
        )
        sees(reporter, "I knew the door was yours!")
        reporter.page.click(f"#talk-lines li[data-id='{said}'] button.talk-who")
        reporter.page.select_option(f"#talk-actions-{said}-reason", "spoiler")
        reporter.page.click(f"#talk-actions-{said} >> text=Report")
        reporter.page.wait_for_selector(f"#talk-actions-{said}", state="detached")
        ada.catch_up()
        ada.page.click(f"#talk-lines li[data-id='{said}'] >> text=Reported: hide it")
        sees(reporter, "Hidden by the host.")
        assert "I knew the door was yours!" not in lines(reporter)

        # Block from a name: muted, and on the blocker's list.
        other = others[-1]
        other.catch_up()
        other.page.click("#talk-people summary")
        other.page.click(f"text=Block {talker.name}")
        other.page.wait_for_selector(f"text=Unblock {talker.name}")
        assert api_call(stack.api_url, "/players/me/blocks", other.token)["blocked"] == [
            api_call(stack.api_url, "/players/me", talker.token)["player_id"]
        ]
        assert "I knew the door was yours!" not in lines(other)
        # ... and the blocked player cannot join the blocker's public lobby: told so, in words.
        other.open(client)
        lobby_link = other.create_game(target_score=10, private=False)
        talker.open(lobby_link)
        talker.page.click("#join")
        refusal = talker.page.wait_for_selector("#error:not([hidden])")
        assert "a block between you and a player at this table" in refusal.text_content().lower()
        for player in (ada, bob, cy):
            assert player.errors == [], (player.name, player.errors)
