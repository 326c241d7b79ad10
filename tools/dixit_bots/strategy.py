"""Choosing a random legal move from nothing but the JSON game view a player receives."""

from __future__ import annotations

import random
from typing import Any

CLUES = ("a quiet storm", "home", "the last door", "échos", "what the moon forgot", "tea for two")
# Dixit Odyssey lets everyone vote for two cards from this many players on.
LARGE_ODYSSEY_TABLE = 7


def choose(
    view: dict[str, Any], rng: random.Random, clues: tuple[str, ...] = CLUES
) -> tuple[str, dict[str, Any]] | None:
    """The move route and body for the viewer of `view`, or None when the game is not waiting on them."""
    rnd, you = view.get("round"), view.get("you")
    if rnd is None or you is None or you["player_id"] not in rnd["waiting_for"]:
        return None
    hand = [card["card_id"] for card in you["hand"]]
    count = len(view["players"])
    if rnd["storyteller_id"] == you["player_id"]:
        return "clue", {"card_id": rng.choice(hand), "clue": rng.choice(clues)}
    if view["phase"] == "submitting":
        return "submissions", {"card_ids": rng.sample(hand, 2 if count == 3 else 1)}
    options = [card["card_id"] for card in rnd["table"] if card["card_id"] not in you["submitted"]]
    two_allowed = view["rules"] == "odyssey" and count >= LARGE_ODYSSEY_TABLE
    return "votes", {"card_ids": rng.sample(options, rng.choice((1, 2)) if two_allowed else 1)}
