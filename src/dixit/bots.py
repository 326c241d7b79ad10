"""Seeded random players that only ever choose legal moves (tests now, load tests later)."""

from __future__ import annotations

import random

from dixit.moves import GiveClue, Move, Submit, Vote
from dixit.state import GameState
from dixit.views import GameView, OwedMove, waiting_for

CLUES = ("a quiet storm", "home", "the last door", "échos", "what the moon forgot", "tea for two")


class RandomBot:
    """Plays from its own view only, as a real client would."""

    def __init__(self, player_id: str, seed: int) -> None:
        self.player_id = player_id
        self.rng = random.Random(seed)

    def choose(self, view: GameView) -> Move | None:
        """A legal move for this bot now, or None when the game is not waiting on it."""
        rnd, you = view.round, view.you
        if rnd is None or you is None or you.owes is None:
            return None
        counts = you.owes.counts
        match you.owes.move:
            case OwedMove.CLUE:
                return GiveClue(self.player_id, self.rng.choice(you.hand), self.rng.choice(CLUES))
            case OwedMove.SUBMIT:
                return Submit(self.player_id, tuple(self.rng.sample(you.hand, counts[0])))
            case OwedMove.VOTE:
                options = [c for c in rnd.table if c not in you.submitted]
                how_many = self.rng.choice(counts)
                return Vote(self.player_id, tuple(self.rng.sample(options, how_many)))


def next_mover(state: GameState) -> str | None:
    """The first seat the game is waiting on, if any."""
    waiting = waiting_for(state)
    return waiting[0] if waiting else None
