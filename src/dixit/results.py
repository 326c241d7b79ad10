"""What a finished round and a finished game say: the reveal of each round, and why the game ended.

Frozen, and named by player id (not seat): a round's reveal outlives the seats of players who leave.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from dixit.lean_dataclass import dataclass


class EndReason(StrEnum):
    """Why a finished game ended."""

    TARGET_SCORE = "target_score"
    DECK_EXHAUSTED = "deck_exhausted"
    EVERYONE_LEFT = "everyone_left"
    # `skip`/`wait`: no round was scored during a full rotation of storytellers; `autoplay`: fewer than
    # two players still answer (see EndNote).
    ABANDONED = "abandoned"


class EndNote(StrEnum):
    """Why an abandoned game was abandoned, for the reveal."""

    NO_ROUND_SCORED = "no_round_scored"
    STOPPED_ANSWERING = "stopped_answering"


@dataclass(frozen=True, slots=True)
class CardResult:
    card_id: str
    owner_id: str
    voter_ids: tuple[str, ...]
    # Played by the timeout for a silent owner (`autoplay`): it earns its owner nothing.
    autoplayed: bool = False


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The full reveal of a finished round: what everybody may see once the round is scored."""

    number: int
    storyteller_id: str
    clue: str
    storyteller_card: str
    cards: tuple[CardResult, ...]
    points: dict[str, int]
    # Voters whose vote the timeout cast for them (`autoplay`): shown, never scored.
    autovoted: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "number": self.number,
            "storyteller_id": self.storyteller_id,
            "clue": self.clue,
            "storyteller_card": self.storyteller_card,
            "cards": [
                {
                    "card_id": c.card_id,
                    "owner_id": c.owner_id,
                    "voter_ids": list(c.voter_ids),
                    **({"autoplayed": True} if c.autoplayed else {}),
                }
                for c in self.cards
            ],
            "points": dict(self.points),
        }
        if self.autovoted:
            out["autovoted"] = list(self.autovoted)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundResult:
        return cls(
            number=data["number"],
            storyteller_id=data["storyteller_id"],
            clue=data["clue"],
            storyteller_card=data["storyteller_card"],
            cards=tuple(
                CardResult(
                    c["card_id"], c["owner_id"], tuple(c["voter_ids"]), bool(c.get("autoplayed", False))
                )
                for c in data["cards"]
            ),
            points={k: int(v) for k, v in data["points"].items()},
            autovoted=tuple(data.get("autovoted", ())),
        )
