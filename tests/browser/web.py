"""Driving the reference web client (web/) in Debian's chromium through Playwright, as a player would.

Shared by the browser test and `make screenshots`. Playwright never downloads a browser here: it launches
the system chromium, so a missing browser is an error, never a silent skip.
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from tests.local_http import Quiet, serving

ROOT = Path(__file__).resolve().parents[2]
WEB_ROOT = ROOT / "web"
# From npm (package.json pins it; `make unit` and `make web-test` run `npm ci`): injected into the page
# under test by the test itself, never served by the client.
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
# Long enough for the client's own polling (5 s by default) to catch up without a nudge.
STEP_TIMEOUT_MS = 15_000


class QuietStaticHandler(Quiet, http.server.SimpleHTTPRequestHandler):
    """web/'s files, with no access log."""


def screenshot(page: Page, path: Path, selector: str | None = None) -> None:
    """The page as a player sees it once settled: scrolled to `selector` (else the top), every image drawn."""
    page.wait_for_load_state("networkidle")
    # A half-drawn card grid is not what a player sees.
    page.wait_for_function("() => [...document.images].every(i => i.complete)")
    if selector:
        page.eval_on_selector(selector, "el => el.scrollIntoView({block: 'start'})")
        page.evaluate("() => window.scrollBy(0, -70)")  # the sticky bar would cover the heading
    else:
        page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(path))
    print(f"wrote {path}")


def run_together(page: Page, selector: str) -> list[str]:
    """The children of `selector` that start above the bottom of the one before: pieces of text that run
    on in one line, where each should read on a line of its own. Empty when they stack."""
    found: list[str] = page.eval_on_selector(
        selector,
        """e => [...e.children].filter((c, i, all) => i > 0
              && c.getBoundingClientRect().top < all[i - 1].getBoundingClientRect().bottom - 1)
            .map(c => c.textContent)""",
    )
    return found


def in_view(page: Page, selector: str) -> bool:
    """Whether `selector` is shown whole inside the viewport and is what the page shows at its middle
    (not hidden under a sticky bar): what a player sees without scrolling."""
    shown: bool = page.eval_on_selector(
        selector,
        """e => { const r = e.getBoundingClientRect();
                  if (e.hidden || r.height === 0 || r.top < 0 || r.bottom > innerHeight) return false;
                  const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                  return e === at || e.contains(at); }""",
    )
    return shown


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now (WCAG 2.1 A and AA, and best practices)."""
    if not AXE.exists():
        raise RuntimeError(f"{AXE} is missing: run `npm ci` (make unit and make web-test do)")
    if not page.evaluate("() => Boolean(window.axe)"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations.map(
            (v) => ({id: v.id, help: v.help, nodes: v.nodes.map((n) => n.target.join(" "))}))"""
    )
    return found


@contextmanager
def static_site(root: Path = WEB_ROOT) -> Iterator[str]:
    """web/ served on a free 127.0.0.1 port, as any static host would; yields its base URL."""
    with serving(functools.partial(QuietStaticHandler, directory=str(root))) as base:
        yield base


@contextmanager
def chromium() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        raise RuntimeError(f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does it)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def api_call(api_url: str, path: str, token: str) -> Any:
    request = urllib.request.Request(api_url + path, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def post_json(api_url: str, path: str, token: str, body: Any) -> Any:
    """A POST's answer body, an error's problem details included."""
    request = urllib.request.Request(
        api_url + path,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        return json.loads(error.read())


@dataclass
class WebPlayer:
    """One phone: a browser context of its own (its own localStorage, so its own token)."""

    name: str
    context: BrowserContext
    client_url: str
    keyboard_only: bool = False
    page: Page = field(init=False)
    errors: list[str] = field(default_factory=list)
    # What the console said was an error, with the resource it names (a failed load: "… status of 404").
    console_errors: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.page = self.context.new_page()
        self.page.set_default_timeout(STEP_TIMEOUT_MS)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on(
            "console",
            lambda message: (
                self.console_errors.append(f"{message.text} {message.location.get('url', '')}")
                if message.type == "error"
                else None
            ),
        )

    # --- reading the page -------------------------------------------------------------------------------

    @property
    def token(self) -> str:
        token = self.page.evaluate(
            "() => Object.entries(localStorage).find(([k]) => k.endsWith(':token'))?.[1] ?? null"
        )
        assert isinstance(token, str), f"{self.name} has no token in localStorage"
        return token

    @property
    def game_id(self) -> str:
        found = re.search(r"#/game/([^/]+)", self.page.url)
        assert found, self.page.url
        return found.group(1)

    def html(self) -> str:
        return self.page.content()

    def owes(self) -> str:
        """What the status box says this player owes: clue, submit, vote, or "" (nothing, or game over)."""
        return self.page.get_attribute("#status", "data-owes") or ""

    def phase(self) -> str:
        return self.page.get_attribute(".game", "data-phase") or ""

    def notice(self) -> str:
        """The notice line's text, or "" while it is hidden."""
        return self.page.evaluate(
            "() => { const n = document.getElementById('notice'); return n.hidden ? '' : n.textContent; }"
        )

    def focused_id(self) -> str:
        return self.page.evaluate("() => document.activeElement?.id || document.activeElement?.tagName")

    def assert_accessible(self, where: str) -> None:
        violations = axe_violations(self.page)
        assert violations == [], f"axe-core on {self.name}'s page ({where}): {violations}"

    def catch_up(self) -> None:
        """What coming back to the app does: the client polls at once instead of at its next tick."""
        self.page.evaluate("() => window.dispatchEvent(new Event('focus'))")

    # --- acting -----------------------------------------------------------------------------------------

    def open(self, url: str) -> None:
        self.page.goto(url)

    def register(self) -> None:
        self.page.fill("#name", self.name)
        self.page.click("text=Start playing")
        self.page.wait_for_selector("#name", state="detached")

    def create_game(self, *, target_score: int, private: bool = True, title: str = "") -> str:
        self.page.click("text=New game")
        self.page.wait_for_selector("#decks input[value=base]")
        if title:
            self.page.fill("#title", title)
        self.page.fill("#target", str(target_score))
        self.page.check(f"input[name=visibility][value={'private' if private else 'public'}]")
        self.page.click("text=Create game")
        self.page.wait_for_selector("#invite")
        return self.page.input_value("#invite")

    def join_by_link(self, link: str, *, register: bool = True) -> None:
        self.open(link)
        if register:
            self.register()
        self.page.click("#join")
        self.page.wait_for_selector("text=Waiting for the host to start the game.")
        self.page.wait_for_selector("#invite")

    def start(self) -> None:
        self.page.click("#start:not([disabled])")
        self.page.wait_for_selector(".game:not([data-phase=lobby])")

    def choose(self, tile_selector: str) -> None:
        """Tap a card (it opens big), then choose it there; or the same with the keyboard alone."""
        if self.keyboard_only:
            self.page.focus(tile_selector)
            self.page.keyboard.press("Enter")
            self.page.wait_for_selector("#zoom[open]")
            # The open dialog takes focus, on its first control: the choice.
            assert self.page.evaluate("() => document.activeElement.textContent") == "Choose this card"
            self.page.keyboard.press("Enter")
            self.page.wait_for_selector("#zoom", state="hidden")
            # Focus comes back to the card, so the next Tab goes on from where the player was.
            assert self.page.evaluate("() => document.activeElement.id") == tile_selector.lstrip("#")
            # ... and its ring is not the gold border that marks a chosen card.
            self.page.wait_for_selector(f"{tile_selector}.chosen")
            ring, border = self.page.evaluate(
                """(sel) => { const s = getComputedStyle(document.querySelector(sel));
                              return [s.outlineColor, s.borderColor]; }""",
                tile_selector,
            )
            assert ring != border, (ring, border)
        else:
            self.page.click(tile_selector)
            self.page.click("#zoom >> text=Choose this card")
        self.page.wait_for_selector(f"{tile_selector}.chosen")

    def send(self) -> None:
        if self.keyboard_only:
            self.page.focus("#send")
            self.page.keyboard.press("Enter")
        else:
            self.page.click("#send")

    def hand_tiles(self) -> int:
        return self.page.locator("ul.cards.hand .tile").count()

    def give_clue(self, clue: str) -> None:
        self.choose("#hand-1")
        self.page.fill("#clue", clue)
        self.send()
        self.page.wait_for_selector("#status:not([data-owes=clue])")

    def submit(self, count: int) -> None:
        for i in range(1, count + 1):
            self.choose(f"#hand-{i}")
        self.send()
        self.page.wait_for_selector("#status:not([data-owes=submit])")

    def vote(self) -> None:
        tiles = self.page.locator("ul.cards.table .tile")
        for i in range(tiles.count()):
            if "Your card" not in tiles.nth(i).inner_text():
                self.choose(f"#table-{i + 1}")
                break
        self.send()
        self.page.wait_for_selector("#status:not([data-owes=vote])")


def settled_rounds(api_url: str, game_id: str, token: str, count: int) -> list[dict[str, Any]]:
    """The game's history once it holds `count` rounds: the stack's stream feeder hands each scored round
    to GameStreamFunction, which writes it, a moment after the vote. Polled, with a bound, never timed."""
    for _ in range(300):
        rounds: list[dict[str, Any]] = api_call(api_url, f"/games/{game_id}/rounds", token)["rounds"]
        if len(rounds) >= count:
            return rounds
        time.sleep(0.1)
    raise AssertionError(f"the history of {game_id} never reached {count} rounds")


def public_card_ids(api_url: str, game_id: str, token: str) -> set[str]:
    """Cards every member may see: the current table and every revealed round."""
    game = api_call(api_url, f"/games/{game_id}", token)
    rounds = api_call(api_url, f"/games/{game_id}/rounds", token)["rounds"]
    seen = {c["card_id"] for c in (game.get("round") or {}).get("table", [])}
    for result in [*rounds, *([game["last_round"]] if game.get("last_round") else [])]:
        seen |= {c["card_id"] for c in result["cards"]}
    return seen


def hands(api_url: str, game_id: str, players: list[WebPlayer]) -> dict[str, set[str]]:
    """Every player's hand, as the API shows it to that player alone."""
    return {
        p.name: {c["card_id"] for c in api_call(api_url, f"/games/{game_id}", p.token)["you"]["hand"]}
        for p in players
    }


def leaked_cards(api_url: str, game_id: str, players: list[WebPlayer]) -> dict[str, set[str]]:
    """For each page, the cards of other players' hands that appear anywhere in its DOM (should be none)."""
    held = hands(api_url, game_id, players)
    public = public_card_ids(api_url, game_id, players[0].token)
    leaks: dict[str, set[str]] = {}
    for player in players:
        html = player.html()
        others = set().union(*(cards for name, cards in held.items() if name != player.name)) - public
        found = {card for card in others if card in html}
        if found:
            leaks[player.name] = found
    return leaks


MOVES = {"storytelling": "clue", "submitting": "submit", "voting": "vote"}


def play_to_the_end(
    api_url: str,
    players: list[WebPlayer],
    *,
    before_move: Callable[[str, WebPlayer], None] | None = None,
    after_move: Callable[[str, WebPlayer], None] | None = None,
    max_moves: int = 200,
) -> dict[str, Any]:
    """Play every move through the pages until the game ends; the API only says whose page to look at.

    After every move, no page may show a card from another player's hand. Returns the finished game.
    """
    by_id = {api_call(api_url, "/players/me", p.token)["player_id"]: p for p in players}
    game_id = players[0].game_id
    for _ in range(max_moves):
        game = api_call(api_url, f"/games/{game_id}", players[0].token)
        if game["phase"] == "finished":
            return game
        move = MOVES[game["phase"]]
        for player_id in game["round"]["waiting_for"]:
            player = by_id[player_id if isinstance(player_id, str) else player_id["player_id"]]
            player.catch_up()
            player.page.wait_for_selector(f"#status[data-owes={move}]")
            if before_move:
                before_move(move, player)
            if move == "clue":
                player.give_clue(f"round {game['round']['number']}")
            elif move == "submit":
                player.submit(2 if len(players) == 3 else 1)
            else:
                player.vote()
            if after_move:
                after_move(move, player)
            leaks = leaked_cards(api_url, game_id, players)
            assert not leaks, f"pages show other players' cards: {leaks}"
    raise AssertionError(f"the game did not end within {max_moves} moves")
