"""Choosing a random legal move from nothing but the JSON game view a player receives."""

from __future__ import annotations

import random
from typing import Any

CLUES = ("a quiet storm", "home", "the last door", "échos", "what the moon forgot", "tea for two")


def choose(
    view: dict[str, Any], rng: random.Random, clues: tuple[str, ...] = CLUES
) -> tuple[str, dict[str, Any]] | None:
    """The move route and body for the viewer of `view`, or None when the game is not waiting on them.

    `you.owes` says which move and how many cards, so the bot never works a count out from the rules.
    """
    rnd, you = view.get("round"), view.get("you")
    owes = None if you is None else you.get("owes")
    if rnd is None or you is None or owes is None:
        return None
    hand = [card["card_id"] for card in you["hand"]]
    if owes["move"] == "clue":
        return "clue", {"card_id": rng.choice(hand), "clue": rng.choice(clues)}
    if owes["move"] == "submit":
        return "submissions", {"card_ids": rng.sample(hand, owes["count"])}
    options = [card["card_id"] for card in rnd["table"] if card["card_id"] not in you["submitted"]]
    return "votes", {"card_ids": rng.sample(options, rng.choice(owes["counts"]))}
