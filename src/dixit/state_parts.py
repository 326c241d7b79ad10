"""The parts of a game's mutable state: its phase, each seated player, and the round in play."""

from __future__ import annotations

from dataclasses import field
from enum import StrEnum
from typing import Any

from dixit.lean_dataclass import dataclass

# A player who let this many owed moves in a row time out is away until they act again.
AWAY_AFTER = 2
# Under `autoplay`, a player who let this many owed moves in a row be played for them no longer answers.
# Far above AWAY_AFTER: for a player who answers late a third of the time, ten given moves in a row are
# all late with a chance of 1 in 59,049, so a table that still plays is not taken for a deserted one.
STOPPED_AFTER = 10


class Phase(StrEnum):
    LOBBY = "lobby"
    STORYTELLING = "storytelling"
    SUBMITTING = "submitting"
    VOTING = "voting"
    FINISHED = "finished"


@dataclass(slots=True)
class Player:
    player_id: str
    name: str
    score: int = 0
    # Owed moves in a row that timed out; any move of the player's resets it.
    missed: int = 0
    # The current or last vacation (epoch seconds; 0, 0: none), and the days declared over the game.
    vacation_start: int = 0
    vacation_until: int = 0
    vacation_days_used: int = 0

    @property
    def away(self) -> bool:
        return self.missed >= AWAY_AFTER

    @property
    def answering(self) -> bool:
        return self.missed < STOPPED_AFTER

    def on_vacation(self, now: int) -> bool:
        return self.vacation_start <= now < self.vacation_until

    def copy(self) -> Player:
        return Player(
            self.player_id,
            self.name,
            self.score,
            self.missed,
            self.vacation_start,
            self.vacation_until,
            self.vacation_days_used,
        )

    def to_row(self) -> list[Any]:
        row: list[Any] = [self.player_id, self.name, self.score, self.missed]
        if self.vacation_until or self.vacation_days_used:
            row.append([self.vacation_start, self.vacation_until, self.vacation_days_used])
        return row

    @classmethod
    def from_row(cls, row: list[Any]) -> Player:
        start, until, used = row[4] if len(row) > 4 else (0, 0, 0)
        return cls(str(row[0]), str(row[1]), int(row[2]), int(row[3]), int(start), int(until), int(used))


@dataclass(slots=True)
class Round:
    number: int
    storyteller_id: str
    # When the owed moves of the current phase started being owed (epoch seconds, from the caller).
    since: int = 0
    clue: str | None = None
    storyteller_card: str | None = None
    # player id -> the cards they put forward, in the order they gave them; the storyteller is not here.
    submissions: dict[str, list[str]] = field(default_factory=dict)
    # The shuffled table, fixed once every submission is in (empty before voting).
    table: list[str] = field(default_factory=list)
    votes: dict[str, list[str]] = field(default_factory=dict)
    # Players out of this round: silent at the submitting deadline, or away when it began.
    sitting_out: list[str] = field(default_factory=list)
    # Under `autoplay`: whose card(s), and whose vote, the timeout played for them.
    autoplayed: list[str] = field(default_factory=list)
    autovoted: list[str] = field(default_factory=list)
    # Extra seconds an extension gave a player for the owed move of this phase (once per owed move).
    extended: dict[str, int] = field(default_factory=dict)
    # Seats a newcomer took in this round once the seat's card was in (dixit.seat_changes.take_seat):
    # the round's secret stays the old player's, and the newcomer plays from the next round.
    joined: list[str] = field(default_factory=list)

    def owner_of(self, card_id: str) -> str | None:
        if card_id == self.storyteller_card:
            return self.storyteller_id
        for player_id, cards in self.submissions.items():
            if card_id in cards:
                return player_id
        return None

    def cards_in_play(self) -> list[str]:
        played = [self.storyteller_card] if self.storyteller_card is not None else []
        return [*played, *(c for cards in self.submissions.values() for c in cards)]

    def copy(self) -> Round:
        """A copy that shares no list or dict with self."""
        return Round(
            number=self.number,
            storyteller_id=self.storyteller_id,
            since=self.since,
            clue=self.clue,
            storyteller_card=self.storyteller_card,
            submissions={pid: list(c) for pid, c in self.submissions.items()},
            table=list(self.table),
            votes={pid: list(c) for pid, c in self.votes.items()},
            sitting_out=list(self.sitting_out),
            autoplayed=list(self.autoplayed),
            autovoted=list(self.autovoted),
            extended=dict(self.extended),
            joined=list(self.joined),
        )
