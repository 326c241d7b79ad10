"""The no-stall controls from the web client at phone size: a vacation, +24 h, a seat offered to a newcomer
who takes it, and a timed-out player removed by the host, every one acknowledged in words; then the game
ends and its rematch is opened from one end screen and joined from another and from the games list.

The ordinary moves (clue, cards, votes) go through the API with the phones' own tokens: the pages under
test here are the controls a host and their friends use on a silent player. Time passes as in
tests/e2e/test_e2e_absences.py: the sweep runs with a scheduled time hours ahead.

With DIXIT_SHOOT=1 it also writes the new screens' pictures into docs/ (what `make screenshots` shows).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..api.json_bot import play_to_the_end
from ..e2e.test_e2e_absences import sweep_in
from ..e2e.test_e2e_http import HttpClient
from ..local_stack.test_local_serve import Served, start_serve, stop
from .web import PHONE, WebPlayer, api_call, chromium, post_json, screenshot, static_site

pytestmark = pytest.mark.browser

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    running = start_serve(tmp_path_factory.mktemp("browser-absences"))
    try:
        yield running
    finally:
        assert stop(running.process) == 0, running.logs()


def shoot(player: WebPlayer, name: str, selector: str | None = None) -> None:
    if os.environ.get("DIXIT_SHOOT"):
        screenshot(player.page, DOCS / f"web-{name}.png", selector)


def look(stack: Served, player: WebPlayer, game_id: str) -> dict[str, Any]:
    game: dict[str, Any] = api_call(stack.api_url, f"/games/{game_id}", player.token)
    return game


def test_a_host_keeps_a_table_going_from_the_web_vacation_extension_offered_seat_and_removal(
    stack: Served,
) -> None:
    with static_site() as site, chromium() as browser:
        client = f"{site}/index.html?api={stack.api_url}"
        phones = {
            name: WebPlayer(name, browser.new_context(viewport=PHONE, device_scale_factor=2), client)
            for name in ("Ada", "Bob", "Cy", "Di", "Fay", "Eve")
        }
        ada, bob, cy, di, fay, eve = phones.values()
        seated = [ada, bob, cy, di, fay]
        for player in seated:
            player.open(client)
            player.register()
        ids = {p.name: api_call(stack.api_url, "/players/me", p.token)["player_id"] for p in seated}
        # The lobby through the API: one-hour moves, so that a sweep two hours ahead times them out.
        created = post_json(
            stack.api_url,
            "/games",
            ada.token,
            {"move_timeout_hours": 1, "visibility": "private", "title": "Long table", "target_score": 3},
        )
        game_id, invite = created["game_id"], created["invite_code"]
        for guest in seated[1:]:
            post_json(stack.api_url, f"/games/{game_id}/join", guest.token, {"invite_code": invite})
        started = post_json(stack.api_url, f"/games/{game_id}/start", ada.token, {})
        teller = next(p for p in seated if ids[p.name] == started["round"]["storyteller_id"])
        card = look(stack, teller, game_id)["you"]["hand"][0]["card_id"]
        clue = {"card_id": card, "clue": "far away"}
        post_json(stack.api_url, f"/games/{game_id}/clue", teller.token, clue)
        if teller is not ada:  # the host plays their card in time: they are not one of the silent ones
            card = look(stack, ada, game_id)["you"]["hand"][0]["card_id"]
            post_json(stack.api_url, f"/games/{game_id}/submissions", ada.token, {"card_ids": [card]})
        # Of the other guests, one will fall silent and see their seat offered, one will fall silent and
        # be removed, and Di (or whoever is left) goes on vacation and is given 24 more hours.
        silent, removed, away = [p for p in seated[1:] if p is not teller][:3]
        seat = {p.name: i + 1 for i, p in enumerate(seated)}  # the page names seats by place, never by id
        bob, cy, di = silent, removed, away

        # Di goes away for a day, from the game screen.
        di.open(f"{client}#/game/{game_id}")
        di.page.wait_for_selector("#vacation-days")
        di.assert_accessible("time and seats with a vacation to take")
        assert "7 vacation days are left" in di.page.inner_text("#table")
        di.page.select_option("#vacation-days", "1")
        di.page.click("#vacation")
        di.page.wait_for_selector("#vacation-state")
        assert "You are on vacation until" in di.notice()
        assert "6 vacation days are left" in di.notice()
        assert di.page.locator("#vacation").count() == 0  # a second vacation would be refused
        shoot(di, "vacation", "#table")

        # Ada gives Di 24 more hours: once per owed move, the new deadline said in words.
        ada.open(f"{client}#/game/{game_id}")
        ada.page.wait_for_selector(".game h1")
        assert ada.page.inner_text(".game h1") == "Long table"
        ada.page.click(f"#extend-{seat[di.name]}")
        ada.page.wait_for_selector(f"#extend-{seat[di.name]}", state="detached")
        assert ada.notice().startswith(f"{di.name} has 24 more hours: they now have until ")
        # A nudge is not fair yet, seconds into a one-hour move: the screen says from when it is.
        assert ada.page.locator("#nudge").count() == 0
        assert "You can nudge" in ada.page.inner_text("#status")
        ada.assert_accessible("time and seats with +24 h given")
        shoot(ada, "game-heading")

        # Two hours on, the silent two have missed their move (a card was played for each); Di has not.
        report = sweep_in(stack, hours=2)
        assert report["timeouts_applied"] == 1, report
        ada.catch_up()
        ada.page.wait_for_selector(f"#offer-{seat[bob.name]}")
        assert "missed their last move" in ada.page.inner_text(f"[data-seat='{seat[bob.name]}']")
        assert "owes cards" in ada.page.inner_text(f"[data-seat='{seat[di.name]}']")
        assert ada.page.locator(f"#offer-{seat[di.name]}").count() == 0  # Di did not time out
        ada.assert_accessible("time and seats with seats to offer and remove")
        shoot(ada, "time-and-seats", "#table")

        bob.open(f"{client}#/game/{game_id}")  # Bob looks at the game his seat is about to go from
        bob.page.wait_for_selector(".game[data-version]")
        ada.page.click(f"#offer-{seat[bob.name]}")
        ada.page.wait_for_selector(f"#seat-link-{seat[bob.name]}")
        assert ada.notice().startswith(f"{bob.name}'s seat is offered. Share the seat's link")
        seat_link = ada.page.input_value(f"#seat-link-{seat[bob.name]}")

        # Removing Cy asks first; declining changes nothing, accepting removes them at the round's end.
        ada.page.once("dialog", lambda dialog: dialog.dismiss())
        ada.page.click(f"#remove-{seat[cy.name]}")
        assert not any(p["leaving"] for p in look(stack, ada, game_id)["players"])
        ada.page.once("dialog", lambda dialog: dialog.accept())
        ada.page.click(f"#remove-{seat[cy.name]}")
        ada.page.wait_for_selector(f"#remove-{seat[cy.name]}", state="detached")
        assert ada.notice().startswith(f"{cy.name} is removed")
        assert "leaves at the end of this round" in ada.page.inner_text(f"[data-seat='{seat[cy.name]}']")
        ada.assert_accessible("an offered seat's link and a removed player")
        shoot(ada, "seat-offered", "#table")

        # Eve, new here, opens the seat's link and takes Bob's seat with his cards and score.
        eve.open(seat_link)
        eve.register()
        eve.page.wait_for_selector("#preview-verdict")
        assert "offers a seat" in eve.page.inner_text("#preview-verdict")
        eve.assert_accessible("the join preview of an offered seat")
        shoot(eve, "join-seat")
        bob_hand = {c["card_id"] for c in look(stack, bob, game_id)["you"]["hand"]}
        eve.page.click("text=Take the seat")
        eve.page.wait_for_selector(".game[data-phase=submitting]")
        assert "You took the offered seat" in eve.notice()
        seen = look(stack, eve, game_id)
        assert {c["card_id"] for c in seen["you"]["hand"]} == bob_hand
        assert [p["name"] for p in seen["players"]] == ["Eve" if p is bob else p.name for p in seated]
        # Bob's screen says his seat is gone, once, in words, instead of his old hand and a refusal.
        bob.catch_up()
        bob.page.wait_for_selector(".game[data-phase=gone] #seat-gone")
        assert "gave your seat to a newcomer" in bob.page.inner_text("#seat-gone")
        assert bob.page.locator("#error").is_hidden()
        assert bob.page.locator(".game .tile").count() == 0

        # The game plays on to its end (bots with the phones' tokens), then
        # Ada opens the rematch from her end screen, Eve joins from hers and Di from the games list.
        members = [eve if p is bob else p for p in seated]
        ids[eve.name] = api_call(stack.api_url, "/players/me", eve.token)["player_id"]
        bots = [HttpClient(p.name, p.token, ids[p.name], base_url=stack.api_url) for p in members]
        final = play_to_the_end(bots, game_id, seed=5)
        assert final["phase"] == "finished"
        ada.catch_up()
        ada.page.wait_for_selector(".game[data-phase=finished] #rematch")
        # Asking whether a rematch is open is no failed load in the console when none is yet.
        assert [e for e in ada.console_errors if "rematch" in e or "preview" in e] == []
        ada.page.click("#rematch")
        ada.page.wait_for_selector(".game[data-phase=lobby]")
        lobby_id = ada.game_id
        eve.open(f"{client}#/game/{game_id}")
        eve.page.wait_for_selector("#rematch-news")
        assert eve.page.inner_text("#rematch-news").startswith("Ada opened a rematch.")
        eve.page.click("#rematch")
        eve.page.wait_for_selector(".game[data-phase=lobby]")
        di.open(client)
        di.page.wait_for_selector(f"[data-rematch='{game_id}']")
        assert [e for e in di.console_errors if "404" in e] == [], di.console_errors
        di.assert_accessible("the games list with a rematch to join")
        di.page.click(f"[data-rematch='{game_id}']")
        di.page.wait_for_selector(".game[data-phase=lobby]")
        lobby = api_call(stack.api_url, f"/games/{lobby_id}", ada.token)
        assert sorted(p["name"] for p in lobby["players"]) == sorted(["Ada", "Eve", di.name])
        for player in phones.values():
            assert player.errors == [], (player.name, player.errors)
