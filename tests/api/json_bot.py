"""A random player that knows only the JSON a real client gets: its own GET view, then one POST.

`dixit.bots.RandomBot` plays from a core `GameView`; through the API there is only JSON, so this bot reads
`round.waiting_for`, `round.table` and `you` from the response body, as a front-end would.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from .client import Client, Reply

CLUES = ("a quiet storm", "home", "the last door", "échos", "what the moon forgot", "tea for two")
LARGE_ODYSSEY_TABLE = 7

# Called with (viewer, body) for every game view a bot reads: lets a test check every view of a game.
Observer = Callable[[Client, dict[str, Any]], None]


def choose(view: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]] | None:
    """The move route and body for the viewer of `view`, or None when the game is not waiting on them."""
    rnd, you = view["round"], view["you"]
    if rnd is None or you is None or you["player_id"] not in rnd["waiting_for"]:
        return None
    hand = [card["card_id"] for card in you["hand"]]
    count = len(view["players"])
    if rnd["storyteller_id"] == you["player_id"]:
        return "clue", {"card_id": rng.choice(hand), "clue": rng.choice(CLUES)}
    if view["phase"] == "submitting":
        return "submissions", {"card_ids": rng.sample(hand, 2 if count == 3 else 1)}
    options = [card["card_id"] for card in rnd["table"] if card["card_id"] not in you["submitted"]]
    two_allowed = view["rules"] == "odyssey" and count >= LARGE_ODYSSEY_TABLE
    how_many = rng.choice((1, 2)) if two_allowed else 1
    return "votes", {"card_ids": rng.sample(options, how_many)}


class JsonBot:
    def __init__(self, client: Client, seed: int, observe: Observer | None = None) -> None:
        self.client = client
        self.rng = random.Random(seed)
        self.observe = observe

    def view(self, game_id: str) -> dict[str, Any]:
        reply = self.client.get(f"/games/{game_id}")
        assert reply.status == 200, reply.raw
        body: dict[str, Any] = reply.body
        if self.observe is not None:
            self.observe(self.client, body)
        return body

    def act(self, game_id: str) -> Reply | None:
        """Read the game, and make a move if it is waiting on this bot."""
        picked = choose(self.view(game_id), self.rng)
        if picked is None:
            return None
        route, body = picked
        reply = self.client.post(f"/games/{game_id}/{route}", body)
        assert reply.status == 200, f"{route} {body}: {reply.raw}"
        if self.observe is not None:
            self.observe(self.client, reply.body)
        return reply


def play_to_the_end(
    clients: Sequence[Client],
    game_id: str,
    *,
    seed: int = 0,
    observe: Observer | None = None,
    max_moves: int = 5_000,
) -> dict[str, Any]:
    """Let a bot per seated client play until the game is finished; the final view (first client's)."""
    bots = {c.player_id: JsonBot(c, seed * 1_000 + i, observe) for i, c in enumerate(clients)}
    watcher = bots[clients[0].player_id]
    moves = 0
    while True:
        view = watcher.view(game_id)
        if view["phase"] == "finished":
            return view
        waiting = view["round"]["waiting_for"]
        assert waiting, f"a game in {view['phase']} waits on somebody"
        for player_id in waiting:
            assert bots[player_id].act(game_id) is not None, f"{player_id} was waited on but could not move"
            moves += 1
        assert moves < max_moves, "the game does not end"
