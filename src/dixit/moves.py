"""Moves as plain data, so a use case can re-apply the same move to a fresher state after a lost race."""

from __future__ import annotations

from dixit.lean_dataclass import dataclass
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


@dataclass(frozen=True, slots=True)
class Vacation:
    """`player_id` will be away for `days` days from now: their deadlines stop meanwhile."""

    player_id: str
    days: int


@dataclass(frozen=True, slots=True)
class Extend:
    """`player_id` gives `for_id`, whom the game waits on, more time for the move they owe."""

    player_id: str
    for_id: str


@dataclass(frozen=True, slots=True)
class OfferSeat:
    """The host offers the seat of `seat_id`, who timed out, to a newcomer."""

    player_id: str
    seat_id: str


@dataclass(frozen=True, slots=True)
class TakeSeat:
    """A newcomer takes the offered seat of `seat_id`, with its hand, score and place in the round."""

    player_id: str
    name: str
    seat_id: str


@dataclass(frozen=True, slots=True)
class RemovePlayer:
    """The host removes `seat_id`, who timed out: their seat leaves the table when the round ends."""

    player_id: str
    seat_id: str


Move = (
    Join
    | Leave
    | Start
    | GiveClue
    | Submit
    | Vote
    | Timeout
    | Vacation
    | Extend
    | OfferSeat
    | TakeSeat
    | RemovePlayer
)
