"""The whole state of one game, and its lossless JSON form (one DynamoDB item)."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from dixit.settings import Settings


class EndReason(StrEnum):
    """Why a finished game ended."""

    TARGET_SCORE = "target_score"
    DECK_EXHAUSTED = "deck_exhausted"
    EVERYONE_LEFT = "everyone_left"


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


@dataclass(slots=True)
class Round:
    number: int
    storyteller_id: str
    clue: str | None = None
    storyteller_card: str | None = None
    # player id -> the cards they put forward, in the order they gave them; the storyteller is not here.
    submissions: dict[str, list[str]] = field(default_factory=dict)
    # The shuffled table, fixed once every submission is in (empty before voting).
    table: list[str] = field(default_factory=list)
    votes: dict[str, list[str]] = field(default_factory=dict)

    def owner_of(self, card_id: str) -> str | None:
        if card_id == self.storyteller_card:
            return self.storyteller_id
        for player_id, cards in self.submissions.items():
            if card_id in cards:
                return player_id
        return None


@dataclass(frozen=True, slots=True)
class CardResult:
    card_id: str
    owner_id: str
    voter_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The full reveal of a finished round: what everybody may see once the round is scored."""

    number: int
    storyteller_id: str
    clue: str
    storyteller_card: str
    cards: tuple[CardResult, ...]
    points: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "storyteller_id": self.storyteller_id,
            "clue": self.clue,
            "storyteller_card": self.storyteller_card,
            "cards": [
                {"card_id": c.card_id, "owner_id": c.owner_id, "voter_ids": list(c.voter_ids)}
                for c in self.cards
            ],
            "points": dict(self.points),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundResult:
        return cls(
            number=data["number"],
            storyteller_id=data["storyteller_id"],
            clue=data["clue"],
            storyteller_card=data["storyteller_card"],
            cards=tuple(
                CardResult(c["card_id"], c["owner_id"], tuple(c["voter_ids"])) for c in data["cards"]
            ),
            points={k: int(v) for k, v in data["points"].items()},
        )


@dataclass(slots=True)
class GameState:
    game_id: str
    settings: Settings
    seed: int
    host_id: str
    players: list[Player]
    phase: Phase = Phase.LOBBY
    version: int = 0
    # How many shuffles the game has made; with `seed` it names the next RNG stream.
    draws: int = 0
    pile: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    hands: dict[str, list[str]] = field(default_factory=dict)
    round: Round | None = None
    last_round: RoundResult | None = None
    winners: list[str] = field(default_factory=list)
    end_reason: EndReason | None = None

    def next_rng(self) -> random.Random:
        """A fresh RNG for the next shuffle; deriving it from (seed, draws) keeps the state small."""
        rng = random.Random(f"{self.seed}:{self.draws}")
        self.draws += 1
        return rng

    def player(self, player_id: str) -> Player | None:
        return next((p for p in self.players if p.player_id == player_id), None)

    def seat_of(self, player_id: str) -> int:
        return next(i for i, p in enumerate(self.players) if p.player_id == player_id)

    @property
    def player_ids(self) -> list[str]:
        return [p.player_id for p in self.players]

    def to_dict(self) -> dict[str, Any]:
        rnd = self.round
        return {
            "game_id": self.game_id,
            "settings": self.settings.to_dict(),
            "seed": self.seed,
            "host_id": self.host_id,
            "players": [[p.player_id, p.name, p.score] for p in self.players],
            "phase": self.phase.value,
            "version": self.version,
            "draws": self.draws,
            "pile": self.pile,
            "discard": self.discard,
            "hands": self.hands,
            "round": None
            if rnd is None
            else {
                "number": rnd.number,
                "storyteller_id": rnd.storyteller_id,
                "clue": rnd.clue,
                "storyteller_card": rnd.storyteller_card,
                "submissions": rnd.submissions,
                "table": rnd.table,
                "votes": rnd.votes,
            },
            "last_round": None if self.last_round is None else self.last_round.to_dict(),
            "winners": self.winners,
            "end_reason": None if self.end_reason is None else self.end_reason.value,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        rnd = data["round"]
        return cls(
            game_id=data["game_id"],
            settings=Settings.from_dict(data["settings"]),
            seed=int(data["seed"]),
            host_id=data["host_id"],
            players=[Player(pid, name, int(score)) for pid, name, score in data["players"]],
            phase=Phase(data["phase"]),
            version=int(data["version"]),
            draws=int(data["draws"]),
            pile=list(data["pile"]),
            discard=list(data["discard"]),
            hands={pid: list(cards) for pid, cards in data["hands"].items()},
            round=None
            if rnd is None
            else Round(
                number=int(rnd["number"]),
                storyteller_id=rnd["storyteller_id"],
                clue=rnd["clue"],
                storyteller_card=rnd["storyteller_card"],
                submissions={pid: list(c) for pid, c in rnd["submissions"].items()},
                table=list(rnd["table"]),
                votes={pid: list(c) for pid, c in rnd["votes"].items()},
            ),
            last_round=None if data["last_round"] is None else RoundResult.from_dict(data["last_round"]),
            winners=list(data["winners"]),
            end_reason=None if data.get("end_reason") is None else EndReason(data["end_reason"]),
        )

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> GameState:
        return cls.from_dict(json.loads(text))

    def copy(self) -> GameState:
        # from_dict rebuilds every list and dict, so the copy shares nothing mutable with self.
        return GameState.from_dict(self.to_dict())
