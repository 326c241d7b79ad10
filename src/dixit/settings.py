"""Game settings and the limits each ruleset allows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

from dixit.cards import CARDS_PER_OFFICIAL_DECK, OFFICIAL_DECKS, card_ids_of, is_deck_id
from dixit.errors import InvalidMoveError
from dixit.lean_dataclass import dataclass
from dixit.limits import (
    DEFAULT_MOVE_TIMEOUT_HOURS,
    DEFAULT_VACATION_DAYS,
    MAX_CUSTOM_DECK_CARDS,
    MAX_DECKS,
    MAX_MOVE_TIMEOUT_HOURS,
    MAX_VACATION_DAYS,
    MIN_CUSTOM_DECK_CARDS,
    MIN_MOVE_TIMEOUT_HOURS,
)
from dixit.text import check_title

MIN_PLAYERS = 3
DEFAULT_TARGET_SCORE = 30
MAX_TARGET_SCORE = 200
HAND_SIZE = 6
HAND_SIZE_THREE_PLAYERS = 7


class Ruleset(StrEnum):
    CLASSIC = "classic"
    ODYSSEY = "odyssey"

    @property
    def max_players(self) -> int:
        return 6 if self is Ruleset.CLASSIC else 12


class TimeoutPolicy(StrEnum):
    """What a missed deadline does: `autoplay` plays a random legal card or vote for the silent player
    (a silent storyteller passes the role), `skip` moves the game on without them, `wait` only reminds."""

    SKIP = "skip"
    WAIT = "wait"
    AUTOPLAY = "autoplay"


class TableTalk(StrEnum):
    """When a game's players may talk at the table (dixit.table_talk): `between_rounds` keeps quiet while
    cards are chosen and votes cast, when a word ("mine has a cat") could give a card away."""

    BETWEEN_ROUNDS = "between_rounds"
    ALWAYS = "always"
    OFF = "off"


DEFAULT_TABLE_TALK = TableTalk.BETWEEN_ROUNDS

# New games autoplay for silent players; a stored game without a policy predates it and skips.
DEFAULT_TIMEOUT_POLICY = TimeoutPolicy.AUTOPLAY
STORED_TIMEOUT_POLICY = TimeoutPolicy.SKIP


def hand_size(player_count: int) -> int:
    return HAND_SIZE_THREE_PLAYERS if player_count == 3 else HAND_SIZE


def cards_to_submit(player_count: int) -> int:
    return 2 if player_count == 3 else 1


def cards_needed(rules: Ruleset, player_count: int) -> int:
    """The fewest cards that deal every hand and play a full rotation of storytellers.

    Odyssey reshuffles the discard, so full hands are enough; classic must also refill after every round
    but the last, with a card still in the pile.
    """
    dealt = player_count * hand_size(player_count)
    if rules is Ruleset.ODYSSEY:
        return dealt
    table = 1 + (player_count - 1) * cards_to_submit(player_count)
    return dealt + (player_count - 1) * table + 1


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class Settings:
    rules: Ruleset = Ruleset.CLASSIC
    decks: tuple[str, ...] = ("base",)
    max_players: int = 6
    target_score: int = DEFAULT_TARGET_SCORE
    # (deck id, card count) of every deck in `decks` that is not official; official decks have 84 cards.
    custom_decks: tuple[tuple[str, int], ...] = ()
    move_timeout_hours: int = DEFAULT_MOVE_TIMEOUT_HOURS
    timeout_policy: TimeoutPolicy = DEFAULT_TIMEOUT_POLICY
    # What the host calls the game, so players with several games tell them apart; None: untitled.
    title: str | None = None
    # How many days of vacation each player may declare over the whole game.
    vacation_days: int = DEFAULT_VACATION_DAYS
    table_talk: TableTalk = DEFAULT_TABLE_TALK

    @classmethod
    def build(
        cls,
        rules: str = Ruleset.CLASSIC.value,
        decks: Sequence[str] | None = None,
        max_players: int | None = None,
        target_score: int | None = None,
        *,
        custom_decks: Mapping[str, int] | None = None,
        move_timeout_hours: int | None = None,
        timeout_policy: str | None = None,
        title: str | None = None,
        vacation_days: int | None = None,
        table_talk: str | None = None,
    ) -> Settings:
        """Validate client-chosen settings; omitted values take the ruleset's defaults.

        `custom_decks` names the custom decks the caller may use (deck id -> card count), besides the
        official catalogue.
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
        known = dict(custom_decks or {})
        for deck_id, count in known.items():
            if not is_deck_id(deck_id) or deck_id in OFFICIAL_DECKS:
                raise InvalidMoveError("invalid_custom_deck", f"{deck_id!r} cannot name a custom deck")
            if not _is_int(count) or not MIN_CUSTOM_DECK_CARDS <= count <= MAX_CUSTOM_DECK_CARDS:
                raise InvalidMoveError(
                    "invalid_custom_deck",
                    f"a custom deck has {MIN_CUSTOM_DECK_CARDS} to {MAX_CUSTOM_DECK_CARDS} cards, "
                    f"not {count!r} ({deck_id})",
                )
        for deck_id in deck_ids:
            if not isinstance(deck_id, str) or (deck_id not in OFFICIAL_DECKS and deck_id not in known):
                raise InvalidMoveError("unknown_deck", f"there is no deck {deck_id!r}")
        seats = ruleset.max_players if max_players is None else max_players
        if not _is_int(seats) or not MIN_PLAYERS <= seats <= ruleset.max_players:
            raise InvalidMoveError(
                "invalid_max_players",
                f"{ruleset.value} seats between {MIN_PLAYERS} and {ruleset.max_players} players",
            )
        target = DEFAULT_TARGET_SCORE if target_score is None else target_score
        if not _is_int(target) or not 1 <= target <= MAX_TARGET_SCORE:
            raise InvalidMoveError("invalid_target_score", f"target_score must be 1..{MAX_TARGET_SCORE}")
        hours = DEFAULT_MOVE_TIMEOUT_HOURS if move_timeout_hours is None else move_timeout_hours
        if not _is_int(hours) or not MIN_MOVE_TIMEOUT_HOURS <= hours <= MAX_MOVE_TIMEOUT_HOURS:
            raise InvalidMoveError(
                "invalid_move_timeout",
                f"move_timeout_hours must be {MIN_MOVE_TIMEOUT_HOURS}..{MAX_MOVE_TIMEOUT_HOURS}",
            )
        try:
            policy = TimeoutPolicy(timeout_policy or DEFAULT_TIMEOUT_POLICY.value)
        except ValueError:
            raise InvalidMoveError(
                "invalid_timeout_policy", f"timeout_policy must be one of {[p.value for p in TimeoutPolicy]}"
            ) from None
        days = DEFAULT_VACATION_DAYS if vacation_days is None else vacation_days
        if not _is_int(days) or not 0 <= days <= MAX_VACATION_DAYS:
            raise InvalidMoveError("invalid_vacation_days", f"vacation_days must be 0..{MAX_VACATION_DAYS}")
        try:
            talk = TableTalk(table_talk or DEFAULT_TABLE_TALK.value)
        except ValueError:
            raise InvalidMoveError(
                "invalid_table_talk", f"table_talk must be one of {[t.value for t in TableTalk]}"
            ) from None
        chosen_custom = tuple((d, known[d]) for d in deck_ids if d not in OFFICIAL_DECKS)
        named = None if title is None else check_title(title)
        settings = cls(ruleset, deck_ids, seats, target, chosen_custom, hours, policy, named, days, talk)
        have, need = len(settings.card_ids()), cards_needed(ruleset, seats)
        if have < need:
            raise InvalidMoveError(
                "decks_too_small",
                f"{have} cards cannot deal {hand_size(seats)} to each of {seats} players and play a full "
                f"rotation of storytellers under {ruleset.value} rules: {need} are needed",
            )
        return settings

    def deck_sizes(self) -> tuple[tuple[str, int], ...]:
        """Every deck of the game with its card count, in the order chosen."""
        custom = dict(self.custom_decks)
        return tuple((d, custom.get(d, CARDS_PER_OFFICIAL_DECK)) for d in self.decks)

    def card_ids(self) -> list[str]:
        """Every card of the game, deck by deck in the order chosen, each deck from 001."""
        return [card for deck_id, count in self.deck_sizes() for card in card_ids_of(deck_id, count)]

    @property
    def move_timeout_seconds(self) -> int:
        return self.move_timeout_hours * 3600

    def to_dict(self) -> dict[str, Any]:
        # Every game item carries this, so it is kept small: an official deck is its position in
        # OFFICIAL_DECK_ORDER, a custom deck is written once with its card count (["c_ours", 12]), and
        # the timeout settings only when they are not the defaults.
        custom = dict(self.custom_decks)
        out: dict[str, Any] = {
            "rules": self.rules.value,
            "decks": [[d, custom[d]] if d in custom else OFFICIAL_DECK_ORDER.index(d) for d in self.decks],
            "max_players": self.max_players,
            "target_score": self.target_score,
        }
        if self.move_timeout_hours != DEFAULT_MOVE_TIMEOUT_HOURS:
            out["move_timeout_hours"] = self.move_timeout_hours
        if self.timeout_policy is not STORED_TIMEOUT_POLICY:
            out["timeout_policy"] = self.timeout_policy.value
        if self.title is not None:
            out["title"] = self.title
        if self.vacation_days != DEFAULT_VACATION_DAYS:
            out["vacation_days"] = self.vacation_days
        if self.table_talk is not DEFAULT_TABLE_TALK:
            out["table_talk"] = self.table_talk.value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        decks = [_deck_entry(d) for d in data["decks"]]
        return cls(
            Ruleset(data["rules"]),
            tuple(d for d, _ in decks),
            data["max_players"],
            data["target_score"],
            tuple((d, n) for d, n in decks if n is not None),
            int(data.get("move_timeout_hours", DEFAULT_MOVE_TIMEOUT_HOURS)),
            TimeoutPolicy(data.get("timeout_policy", STORED_TIMEOUT_POLICY.value)),
            data.get("title"),
            int(data.get("vacation_days", DEFAULT_VACATION_DAYS)),
            # Games stored before the setting talk between rounds, as new games do by default.
            TableTalk(data.get("table_talk", DEFAULT_TABLE_TALK.value)),
        )


# Stored games name official decks by their position here: append new decks, never reorder.
OFFICIAL_DECK_ORDER: tuple[str, ...] = tuple(OFFICIAL_DECKS)


def _deck_entry(stored: Any) -> tuple[str, int | None]:
    """(deck id, card count if custom) from a stored deck: a position, a custom [id, count], or an
    official deck's name (as games stored before positions were)."""
    if isinstance(stored, int):
        return OFFICIAL_DECK_ORDER[stored], None
    if isinstance(stored, str):
        return stored, None
    return str(stored[0]), int(stored[1])
