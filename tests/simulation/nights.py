"""The simulated players' nights: some keep quiet hours in their own time zone and sleep through them.

They set them through PUT /players/me/notifications. The model reckons their nights on its own
(zoneinfo), not with the app's code: the season counts what reached a player, or timed them out, while
the model says they were asleep (the target is none). A sleeper never answers at night: an answer that
would fall in their quiet hours comes a little after they end.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

ZONES = ("Europe/Paris", "America/New_York", "Asia/Tokyo", "America/Los_Angeles", "Australia/Sydney", "UTC")
WINDOWS = (("22:00", "08:00"), ("23:00", "07:00"), ("00:30", "09:00"))


def _minutes(text: str) -> int:
    hours, minutes = text.split(":")
    return int(hours) * 60 + int(minutes)


@dataclass(frozen=True, slots=True)
class Night:
    time_zone: str
    start: str  # local "HH:MM"
    end: str

    def preferences(self) -> dict[str, object]:
        """What the player sets through PUT /players/me/notifications."""
        return {"time_zone": self.time_zone, "quiet_hours": {"start": self.start, "end": self.end}}

    def _local(self, at: int) -> datetime:
        return datetime.fromtimestamp(at, UTC).astimezone(ZoneInfo(self.time_zone))

    def covers(self, at: int) -> bool:
        """Whether epoch second `at` falls inside these quiet hours, local wall time."""
        local = self._local(at)
        minute = local.hour * 60 + local.minute
        start, end = _minutes(self.start), _minutes(self.end)
        return (minute - start) % 1440 < (end - start) % 1440

    def awake_at(self, at: int) -> int:
        """`at`, or the first minute after these quiet hours when it falls inside them."""
        moved = at
        while self.covers(moved):
            moved += 60 * 15
        return moved if moved == at else moved + 60 * 15


def nights_for(players: list[str], share: float, seed: int) -> dict[str, Night]:
    """Quiet hours for about `share` of `players`, drawn from their own stream (the rest of the season's
    draws stay as they were without them)."""
    rng = random.Random(f"{seed}:nights")
    chosen = sorted(rng.sample(players, int(len(players) * share)))
    return {p: Night(rng.choice(ZONES), *rng.choice(WINDOWS)) for p in chosen}
