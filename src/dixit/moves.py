"""Moves as plain data, so a use case can re-apply the same move to a fresher state after a lost race."""

from __future__ import annotations

from dataclasses import dataclass

from dixit.quiet_hours import SeatQuiet


@dataclass(frozen=True, slots=True)
class Join:
    player_id: str
    name: str
    # The joining player's quiet hours, from their preferences: the seat's deadlines avoid them.
    quiet: SeatQuiet | None = None


@dataclass(frozen=True, slots=True)
class Leave:
    player_id: str


@dataclass(frozen=True, slots=True)
class Start:
    player_id: str


@dataclass(frozen=True, slots=True)
class GiveClue:
    player_id: str
    card_id: str
    clue: str


@dataclass(frozen=True, slots=True)
class Submit:
    player_id: str
    card_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Vote:
    player_id: str
    card_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Timeout:
    """The deadline of the owed moves has passed (applied by the sweep, with its "now" given to apply).

    Legal only once the deadline is reached; under the `wait` policy it changes nothing."""


Move = Join | Leave | Start | GiveClue | Submit | Vote | Timeout
