"""`make screenshots`: the web client at phone size (390x844) on the local stack, saved into docs/.

Plays the opening of a real 3-player game through the pages and photographs the join preview, the games
list, the hand (the storyteller choosing), the wait after a submission, the voting table and the reveal.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from ..local_stack.test_local_serve import start_serve, stop
from .web import PHONE, WebPlayer, api_call, chromium, screenshot, static_site

DOCS = Path(__file__).resolve().parents[2] / "docs"


def shoot(player: WebPlayer, name: str, selector: str | None = None) -> None:
    screenshot(player.page, DOCS / f"web-{name}.png", selector)


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        served = start_serve(Path(tmp))
        try:
            with static_site() as site, chromium() as browser:
                client = f"{site}/index.html?api={served.api_url}"
                players = [
                    WebPlayer(name, browser.new_context(viewport=PHONE, device_scale_factor=2), client)
                    for name in ("Ada", "Bob", "Cy")
                ]
                ada, bob, cy = players
                ada.open(client)
                ada.register()
                link = ada.create_game(target_score=30, title="Friday family game")
                bob.open(link)
                bob.register()
                bob.page.wait_for_selector("#preview dl.facts")
                shoot(bob, "join")
                bob.page.click("#join")
                bob.page.wait_for_selector("#invite")
                cy.join_by_link(link)
                ada.catch_up()
                ada.start()
                # A second game, still in its lobby, so the inbox has an order to show.
                bob.open(client)
                second = bob.create_game(target_score=10)
                ada.join_by_link(second, register=False)
                ada.open(link)
                ada.page.wait_for_url("**#/game/**")

                game_id = ada.game_id
                by_id = {api_call(served.api_url, "/players/me", p.token)["player_id"]: p for p in players}
                game = api_call(served.api_url, f"/games/{game_id}", ada.token)
                teller = by_id[game["round"]["storyteller_id"]]
                others = [p for p in players if p is not teller]

                teller.open(client + f"#/game/{game_id}")
                teller.page.wait_for_selector("#status[data-owes=clue]")
                teller.choose("#hand-2")
                teller.page.fill("#clue", "the door nobody opens")
                shoot(teller, "hand")
                teller.page.click("#send")
                teller.page.wait_for_selector("#status:not([data-owes=clue])")

                inbox_owner = next(p for p in others if p is not cy)
                inbox_owner.open(client + "#/")
                inbox_owner.page.wait_for_selector("a.game-link.urgent")
                shoot(inbox_owner, "inbox")

                for i, player in enumerate(others):
                    player.open(client + f"#/game/{game_id}")
                    player.page.wait_for_selector("#status[data-owes=submit]")
                    player.submit(2)
                    if i == 0:
                        shoot(player, "played")
                voter, last = others
                voter.catch_up()
                voter.page.wait_for_selector("#status[data-owes=vote]")
                tiles = voter.page.locator("ul.cards.table .tile")
                pick = next(i for i in range(tiles.count()) if "Your card" not in tiles.nth(i).inner_text())
                voter.choose(f"#table-{pick + 1}")
                shoot(voter, "vote", "#status")
                voter.page.click("#send")
                voter.page.wait_for_selector("#status:not([data-owes=vote])")
                last.catch_up()
                last.page.wait_for_selector("#status[data-owes=vote]")
                last.vote()

                voter.catch_up()
                voter.page.wait_for_selector("section.reveal")
                shoot(voter, "reveal", "section.reveal")
                errors = [e for p in players for e in p.errors]
                if errors:
                    print("page errors:", *errors, sep="\n", file=sys.stderr)
                    return 1
        finally:
            stop(served.process)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
