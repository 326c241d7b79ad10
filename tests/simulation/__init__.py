"""A by-mail season on a fake clock: one player in five never answers, the others answer after a random
delay of up to 1.5x the timeout; the sweep runs on its schedule. Every game must finish.

    python -m tests.simulation --games 200          # what `make simulate` runs: in memory
    python -m tests.simulation --games 5 --twin     # the same season over moto and the real handlers

The same seed gives the same report: everything the app would draw from `secrets` comes from the seed
(`entropy`), the clock is the season's, and nothing in the loop depends on set order or thread timing.
"""

from __future__ import annotations

from typing import Any

from .entropy import seeded_secrets
from .memory import MemoryWorld, quiet_logs
from .model import FakeClock, Played, Season, World
from .report import build, most_reminders_in_12_hours
from .season import play
from .twin import TwinWorld, aws_twin, twin_clock

__all__ = [
    "Season",
    "aws_twin",
    "most_reminders_in_12_hours",
    "played_in_memory",
    "run_in_memory",
    "run_on_twin",
]


def _run(world: World, season: Season) -> dict[str, Any]:
    return build(play(world, season))


def played_in_memory(season: Season) -> Played:
    """The season through the use cases over the in-memory stores."""
    with seeded_secrets(season.seed), quiet_logs():
        return play(MemoryWorld(), season)


def run_in_memory(season: Season) -> dict[str, Any]:
    """The season through the use cases over the in-memory stores; its report."""
    return build(played_in_memory(season))


def run_on_twin(season: Season) -> dict[str, Any]:
    """The season through the real handlers on moto (call inside `aws_twin()`); its report."""
    clock = FakeClock()
    with seeded_secrets(season.seed), quiet_logs(), twin_clock(clock):
        return _run(TwinWorld(clock), season)
