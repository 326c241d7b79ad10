"""What a season is (games, seed, the players' harsh model) and what any world it runs in must offer.

A world is the system under simulation seen as a front-end and the AWS plumbing would see it: players
register, create, join and start games, read their view and post moves; a scheduled sweep runs; what the
game item's changes and the sweep published reaches the players. `memory.MemoryWorld` runs it through the
use cases over the in-memory stores, `twin.TwinWorld` through the real handlers on moto.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from dixit.state import GameState

from .nights import Night

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


class FakeClock:
    def __init__(self, now: datetime = T0) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def epoch(self) -> int:
        return int(self.now.timestamp())


@dataclass
class Season:
    games: int
    seed: int
    timeout_hours: int = 48
    sweep_every: timedelta = timedelta(minutes=30)  # the template's rate is 5 minutes
    silent_share: float = 0.2  # one player in five never answers
    late_factor: float = 1.5  # the others answer after up to this many timeouts
    target_score: int = 15
    max_days: int = 365
    timeout_policy: str | None = None  # None: the default a new game gets
    quiet_share: float = 0.3  # players who keep quiet hours and sleep through them (nights.py)
    quiet_hours_set: bool = True  # they set them in their preferences (False: the app never knows)
    # Absences and the host's remedies (0: never), drawn from their own stream:
    vacation_chance: float = 0.02  # an answering player, told it is their turn, first declares a vacation
    vacation_days: int = 4  # of 1 to this many days
    extend_chance: float = 0.05  # having moved, a player gives someone still awaited 24 more hours
    offer_chance: float = 0.5  # the host offers the seat of a player who timed out (once per seat)
    take_chance: float = 0.5  # a newcomer takes an offered seat within a timeout

    def without_absences(self) -> Season:
        """The same season with no vacation, extension or offered seat: the bare harsh model."""
        return replace(self, vacation_chance=0.0, extend_chance=0.0, offer_chance=0.0, take_chance=0.0)


@dataclass
class Tally:
    """What the season counted while it ran."""

    # Everything published to the players: (epoch, kind, player_id, game_id)
    published: list[tuple[int, str, str, str]] = field(default_factory=list)
    moves: int = 0
    sweeps: int = 0
    lost_races: int = 0
    timeouts: int = 0
    players_timed_out: int = 0  # as the sweep's reports count them
    refused: Counter[str] = field(default_factory=Counter)
    # Who a sweep's write moved on without: (epoch, game_id, player_id)
    timed_out: list[tuple[int, str, str]] = field(default_factory=list)
    # What reached a player, or timed them out, while they slept (the target is none)
    messages_in_quiet_hours: Counter[str] = field(default_factory=Counter)
    timeouts_in_quiet_hours: int = 0
    timeouts_held_asleep: int = 0  # sweeps that found a past deadline whose players all slept
    # What the game changes marked (markers.py), and the timeouts by the phase they ended
    marks: Counter[str] = field(default_factory=Counter)
    timeouts_by_phase: Counter[str] = field(default_factory=Counter)


@dataclass
class Played:
    """A finished season: the tally, who sat where, and each game's final state."""

    season: Season
    tally: Tally
    seats: dict[str, list[str]]  # game id -> player ids, host first
    silent: frozenset[str]
    started_at: dict[str, int]
    finished_at: dict[str, int]
    final: dict[str, GameState]
    nights: dict[str, Night]


@dataclass
class Heard:
    """What reached the players since the world was last asked, and the game changes behind it."""

    # (kind, player_id, game_id), in the order published
    published: list[tuple[str, str, str]] = field(default_factory=list)
    # (old state or None for a new game, new state), in commit order, as the table's stream carries them
    changes: list[tuple[GameState | None, GameState]] = field(default_factory=list)


class World(Protocol):
    clock: FakeClock

    def register(self, name: str) -> str:
        """A new player's id."""

    def create(self, host_id: str, body: dict[str, Any]) -> tuple[str, str]:
        """A new game (POST /games body): its id and invite code."""

    def join(self, player_id: str, game_id: str, invite_code: str) -> None: ...

    def set_preferences(self, player_id: str, body: dict[str, Any]) -> None:
        """PUT /players/me/notifications with `body`."""

    def start(self, host_id: str, game_id: str) -> None: ...

    def view(self, player_id: str, game_id: str) -> dict[str, Any]:
        """The game as the player's GET /games/{id} shows it."""

    def move(self, player_id: str, game_id: str, route: str, body: dict[str, Any]) -> str | None:
        """POST /games/{id}/{route}: None when applied, else why it was refused (a code or status)."""

    def sweep(self) -> dict[str, Any]:
        """One scheduled sweep as of the clock: its report."""

    def hear(self) -> Heard:
        """Run the stream consumer on what changed; what was published and what changed since last asked."""

    def earliest_due(self) -> int | None:
        """The earliest entry in the due index."""

    def finished(self) -> dict[str, GameState]:
        """The final state of every game that finished so far."""
