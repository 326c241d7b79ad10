"""A random player that knows only the JSON a real client gets: its own GET view, then one POST.

`dixit.bots.RandomBot` plays from a core `GameView`; through the API there is only JSON, so this bot reads
`you.owes` (which move, how many cards), `round.table` and `you.hand` from the response body, as a
front-end would: it never works out a count from the rules itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from .client import Client, Reply

CLUES = ("a quiet storm", "home", "the last door", "échos", "what the moon forgot", "tea for two")

# Called with (viewer, body) for every game view a bot reads: lets a test check every view of a game.
Observer = Callable[[Client, dict[str, Any]], None]


def choose(view: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]] | None:
    """The move route and body for the viewer of `view`, or None when the game is not waiting on them."""
    rnd, you = view["round"], view["you"]
    owes = None if you is None else you["owes"]
    if rnd is None or owes is None:
        return None
    hand = [card["card_id"] for card in you["hand"]]
    if owes["move"] == "clue":
        return "clue", {"card_id": rng.choice(hand), "clue": rng.choice(CLUES)}
    if owes["move"] == "submit":
        return "submissions", {"card_ids": rng.sample(hand, owes["count"])}
    options = [card["card_id"] for card in rnd["table"] if card["card_id"] not in you["submitted"]]
    return "votes", {"card_ids": rng.sample(options, rng.choice(owes["counts"]))}


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
