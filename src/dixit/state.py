"""The whole state of one game: what it holds, and what follows from it (whose move is owed, by when,
what is left to draw).

The draw pile is never stored: the deck order is a pure function of the seed and the reshuffle
generation (dixit.deck), so the state keeps only a position into it. The discard is whatever is neither
in the pile, in a hand nor on the table. Its JSON form is written and read by dixit.state_json.

The parts of a state (players, rounds, results, phases) live in dixit.state_parts and dixit.results;
they are re-exported here, where every caller has always imported them from.
"""

from __future__ import annotations

import json
import random
from dataclasses import field
from typing import Any

from dixit.deck import catalogue, deck_order
from dixit.lean_dataclass import dataclass
from dixit.quiet_hours import SeatQuiet, shift_deadline
from dixit.results import CardResult, EndNote, EndReason, RoundResult
from dixit.settings import Settings
from dixit.state_parts import AWAY_AFTER, STOPPED_AFTER, Phase, Player, Round

__all__ = [
    "AWAY_AFTER",
    "STOPPED_AFTER",
    "CardResult",
    "EndNote",
    "EndReason",
    "GameState",
    "Phase",
    "Player",
    "Round",
    "RoundResult",
]


@dataclass(slots=True)
class GameState:
    game_id: str
    settings: Settings
    seed: int
    host_id: str
    players: list[Player]
    phase: Phase = Phase.LOBBY
    version: int = 0
    # How many shuffles the game has made besides the deck's; with `seed` it names the next RNG stream.
    draws: int = 0
    # The deck: how many reshuffles so far, how far into the current order the draws have gone, and
    # which cards the current reshuffle took (None: the first order, every card of the game).
    deck_generation: int = 0
    deck_position: int = 0
    reshuffled: frozenset[str] | None = None
    hands: dict[str, list[str]] = field(default_factory=dict)
    round: Round | None = None
    last_round: RoundResult | None = None
    winners: list[str] = field(default_factory=list)
    end_reason: EndReason | None = None
    # Storyteller turns since a round was last scored; a full rotation of them abandons the game.
    idle_turns: int = 0
    end_note: EndNote | None = None
    # Seats the host offered to a newcomer (player id -> when): a newcomer takes one with its hand and
    # score, and the game is not abandoned while an offer is younger than one timeout.
    offered: dict[str, int] = field(default_factory=dict)
    # Seats' quiet hours (copied from their preferences): deadlines owed by them avoid their nights.
    quiet: dict[str, SeatQuiet] = field(default_factory=dict)
    # Seats the host removed: they leave the table when the current round ends (autoplayed meanwhile).
    leaving: list[str] = field(default_factory=list)
    # Seats whose account was deleted in play (dixit.departures): moved on at each deadline whatever the
    # policy, and never the host. Newcomers: who took an offered seat, in order (the latest seated).
    departed: list[str] = field(default_factory=list)
    newcomers: list[str] = field(default_factory=list)

    def next_rng(self) -> random.Random:
        """A fresh RNG for the next shuffle; deriving it from (seed, draws) keeps the state small."""
        rng = random.Random(f"{self.seed}:{self.draws}")
        self.draws += 1
        return rng

    def deck(self) -> tuple[str, ...]:
        return deck_order(self.seed, self.settings, self.deck_generation, self.reshuffled)

    @property
    def pile(self) -> list[str]:
        """The cards still to draw, in draw order."""
        return list(self.deck()[self.deck_position :]) if self.phase is not Phase.LOBBY else []

    @property
    def discard(self) -> list[str]:
        """Cards played in earlier rounds and not yet reshuffled, in catalogue order."""
        if self.phase is Phase.LOBBY:
            return []
        elsewhere = set(self.deck()[self.deck_position :])
        elsewhere.update(c for hand in self.hands.values() for c in hand)
        if self.round is not None:
            elsewhere.update(self.round.cards_in_play())
        return [c for c in catalogue(self.settings)[0] if c not in elsewhere]

    def draw(self, count: int) -> list[str]:
        """Take up to `count` cards from the top of the pile."""
        taken = list(self.deck()[self.deck_position : self.deck_position + count])
        self.deck_position += len(taken)
        return taken

    def reshuffle_discard(self) -> None:
        """Odyssey: the discard becomes the next pile, in a fresh order."""
        self.reshuffled = frozenset(self.discard)
        self.deck_generation += 1
        self.deck_position = 0

    def player(self, player_id: str) -> Player | None:
        return next((p for p in self.players if p.player_id == player_id), None)

    def seat_of(self, player_id: str) -> int:
        return next(i for i, p in enumerate(self.players) if p.player_id == player_id)

    @property
    def player_ids(self) -> list[str]:
        return [p.player_id for p in self.players]

    def awaited(self) -> tuple[str, ...]:
        """Whose move the game is waiting on, in seat order."""
        rnd = self.round
        if rnd is None or self.phase not in (Phase.STORYTELLING, Phase.SUBMITTING, Phase.VOTING):
            return ()
        if self.phase is Phase.STORYTELLING:
            return (rnd.storyteller_id,)
        if self.phase is Phase.SUBMITTING:
            done = set(rnd.submissions) | set(rnd.sitting_out) | {rnd.storyteller_id}
            return tuple(pid for pid in self.player_ids if pid not in done)
        return tuple(
            pid
            for pid in self.player_ids
            if pid in rnd.submissions and pid not in rnd.votes and pid not in rnd.sitting_out
        )

    def deadline(self) -> int | None:
        """When the first owed move of the current phase times out, if anything is owed."""
        owed = self.awaited()
        if self.round is None or not owed:
            return None
        return min(self.deadline_of(pid) for pid in owed)

    def deadline_of(self, player_id: str) -> int:
        """When `player_id`'s move in the current phase times out: the phase's timeout, plus any
        extension, plus the part of a vacation that overlaps the phase (their clock stops while away),
        moved out of their quiet hours (dixit.quiet_hours), so that nobody times out asleep."""
        rnd = self.round
        assert rnd is not None
        timeout = self.settings.move_timeout_seconds
        at = rnd.since + timeout + rnd.extended.get(player_id, 0)
        player = self.player(player_id)
        if player is not None and player.vacation_until > rnd.since:
            at += player.vacation_until - max(rnd.since, player.vacation_start)
        quiet = self.quiet.get(player_id)
        return at if quiet is None else shift_deadline(at, [quiet], timeout)

    # --- JSON (dixit.state_json) ------------------------------------------------------------------
    # Imported on call: dixit.state_json builds GameStates, so it imports this module.

    def to_dict(self) -> dict[str, Any]:
        from dixit.state_json import encode

        return encode(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        from dixit.state_json import decode

        return decode(data)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> GameState:
        return cls.from_dict(json.loads(text))

    def copy(self) -> GameState:
        """A copy that shares nothing mutable with self (settings, results and sets are immutable)."""
        # Built field by field: dataclasses.replace costs more than the rest of a move.
        return GameState(
            game_id=self.game_id,
            settings=self.settings,
            seed=self.seed,
            host_id=self.host_id,
            players=[p.copy() for p in self.players],
            phase=self.phase,
            version=self.version,
            draws=self.draws,
            deck_generation=self.deck_generation,
            deck_position=self.deck_position,
            reshuffled=self.reshuffled,
            hands={pid: list(hand) for pid, hand in self.hands.items()},
            round=None if self.round is None else self.round.copy(),
            last_round=self.last_round,
            winners=list(self.winners),
            end_reason=self.end_reason,
            idle_turns=self.idle_turns,
            end_note=self.end_note,
            offered=dict(self.offered),
            quiet=dict(self.quiet),  # SeatQuiet is immutable
            leaving=list(self.leaving),
            departed=list(self.departed),
            newcomers=list(self.newcomers),
        )
