"""The deck as a pure function of the game's seed: its cards, and the draw order of each generation.

The state never stores the draw pile, only a position into the order computed here; the cards' catalogue
order is also what the stored form numbers cards by.
"""

from __future__ import annotations

import random
from functools import lru_cache

from dixit.settings import Settings


@lru_cache(maxsize=64)
def catalogue(settings: Settings) -> tuple[tuple[str, ...], dict[str, int]]:
    """Every card of the game in catalogue order, and each card's index in it."""
    cards = tuple(settings.card_ids())
    return cards, {card: i for i, card in enumerate(cards)}


@lru_cache(maxsize=256)
def deck_order(
    seed: int, settings: Settings, generation: int, reshuffled: frozenset[str] | None
) -> tuple[str, ...]:
    """The draw order of one deck generation: every card at first, then each Odyssey reshuffle of the
    discard. A pure function of its arguments, each generation with its own RNG stream."""
    cards, index = catalogue(settings)
    order = list(cards) if reshuffled is None else sorted(reshuffled, key=index.__getitem__)
    random.Random(f"{seed}:deck:{generation}").shuffle(order)
    return tuple(order)
