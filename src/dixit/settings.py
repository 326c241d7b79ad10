"""Game settings and the limits each ruleset allows."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from dixit.cards import OFFICIAL_DECKS, is_deck_id
from dixit.errors import InvalidMoveError

MIN_PLAYERS = 3
DEFAULT_TARGET_SCORE = 30
MAX_TARGET_SCORE = 200
MAX_DECKS = len(OFFICIAL_DECKS)


class Ruleset(StrEnum):
    CLASSIC = "classic"
    ODYSSEY = "odyssey"

    @property
    def max_players(self) -> int:
        return 6 if self is Ruleset.CLASSIC else 12


@dataclass(frozen=True, slots=True)
class Settings:
    rules: Ruleset = Ruleset.CLASSIC
    decks: tuple[str, ...] = ("base",)
    max_players: int = 6
    target_score: int = DEFAULT_TARGET_SCORE

    @classmethod
    def build(
        cls,
        rules: str = Ruleset.CLASSIC.value,
        decks: list[str] | tuple[str, ...] | None = None,
        max_players: int | None = None,
        target_score: int | None = None,
        *,
        known_decks: frozenset[str] | None = None,
    ) -> Settings:
        """Validate client-chosen settings; omitted values take the ruleset's defaults.

        `known_decks` widens the official catalogue with decks the caller knows about (custom decks).
        """
        try:
            ruleset = Ruleset(rules)
        except ValueError:
            raise InvalidMoveError(
                "invalid_rules", f"rules must be one of {[r.value for r in Ruleset]}"
            ) from None
        deck_ids = tuple(decks) if decks is not None else ("base",)
        if not deck_ids or len(deck_ids) > MAX_DECKS:
            raise InvalidMoveError("invalid_decks", f"choose between 1 and {MAX_DECKS} decks")
        if len(set(deck_ids)) != len(deck_ids):
            raise InvalidMoveError("invalid_decks", "a deck is listed twice")
        allowed = frozenset(OFFICIAL_DECKS) | (known_decks or frozenset())
        for deck_id in deck_ids:
            if not is_deck_id(deck_id) or deck_id not in allowed:
                raise InvalidMoveError("unknown_deck", f"there is no deck {deck_id!r}")
        seats = ruleset.max_players if max_players is None else max_players
        if not MIN_PLAYERS <= seats <= ruleset.max_players:
            raise InvalidMoveError(
                "invalid_max_players",
                f"{ruleset.value} seats between {MIN_PLAYERS} and {ruleset.max_players} players",
            )
        target = DEFAULT_TARGET_SCORE if target_score is None else target_score
        if not 1 <= target <= MAX_TARGET_SCORE:
            raise InvalidMoveError("invalid_target_score", f"target_score must be 1..{MAX_TARGET_SCORE}")
        return cls(ruleset, deck_ids, seats, target)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.value,
            "decks": list(self.decks),
            "max_players": self.max_players,
            "target_score": self.target_score,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        return cls(Ruleset(data["rules"]), tuple(data["decks"]), data["max_players"], data["target_score"])
