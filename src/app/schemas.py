"""The public JSON contract: request and response bodies, snake_case, as third-party clients see them."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, Strict

from app.custom_decks import CUSTOM_DECK_ID_PATTERN
from app.records import Visibility
from dixit.cards import OFFICIAL_DECKS
from dixit.limits import (
    DEFAULT_MOVE_TIMEOUT_HOURS,
    MAX_CLUE_BYTES,
    MAX_CLUE_LENGTH,
    MAX_CUSTOM_DECK_CARDS,
    MAX_DECKS,
    MAX_MOVE_TIMEOUT_HOURS,
    MAX_NAME_BYTES,
    MAX_NAME_LENGTH,
    MIN_CUSTOM_DECK_CARDS,
    MIN_MOVE_TIMEOUT_HOURS,
)
from dixit.settings import MAX_TARGET_SCORE, MIN_PLAYERS, Ruleset, TimeoutPolicy
from dixit.state import EndReason, Phase

# Player-typed text: at least one visible character, and none of the control, bidi-override or isolate
# characters the rules refuse (unassigned code points and the UTF-8 byte limit are the rules' alone).
_HOSTILE = r"\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"
TEXT_PATTERN = rf"^[^{_HOSTILE}]*[^\s{_HOSTILE}][^{_HOSTILE}]*$"
CARD_ID_PATTERN = r"^[a-z0-9](?:[a-z0-9_]{0,30}[a-z0-9])?-[0-9]{3}$"
CardId = Annotated[str, Field(pattern=CARD_ID_PATTERN, examples=["base-017"])]


def _integral(value: object) -> object:
    # JSON Schema counts 6.0 as an integer, so the server does too; "6" and true stay refused.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# A JSON integer within its range: never a string or a boolean, a float only when it is a whole number.
# The range comes first so that it lands in the JSON schema as minimum and maximum.
SeatsClassic = Annotated[
    int, Field(ge=MIN_PLAYERS, le=Ruleset.CLASSIC.max_players), Strict(), BeforeValidator(_integral)
]
SeatsOdyssey = Annotated[
    int, Field(ge=MIN_PLAYERS, le=Ruleset.ODYSSEY.max_players), Strict(), BeforeValidator(_integral)
]
TargetScore = Annotated[int, Field(ge=1, le=MAX_TARGET_SCORE), Strict(), BeforeValidator(_integral)]
CardCount = Annotated[
    int,
    Field(ge=MIN_CUSTOM_DECK_CARDS, le=MAX_CUSTOM_DECK_CARDS),
    Strict(),
    BeforeValidator(_integral),
]
TimeoutHours = Annotated[
    int, Field(ge=MIN_MOVE_TIMEOUT_HOURS, le=MAX_MOVE_TIMEOUT_HOURS), Strict(), BeforeValidator(_integral)
]


class Request(BaseModel):
    # Strict: "12" is not a number and 1 is not a string; a client learns that instead of being guessed.
    model_config = ConfigDict(extra="forbid", strict=True)


class Problem(BaseModel):
    """RFC 9457 problem details, with a stable machine-readable `code`."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    code: str
    errors: list[dict[str, object]] | None = None


class CreatePlayer(Request):
    name: str = Field(
        min_length=1,
        max_length=MAX_NAME_LENGTH,
        pattern=TEXT_PATTERN,
        examples=["Ada"],
        description=f"Shown to other players; at most {MAX_NAME_BYTES} bytes in UTF-8, no unassigned "
        "code points",
    )


class PlayerCreated(BaseModel):
    player_id: str
    name: str
    token: str = Field(description="Bearer token; shown only in this response")


class PlayerOut(BaseModel):
    player_id: str
    name: str


# An official deck, or a custom deck's id: the schema lists the one and states the other's form, and the
# rules refuse anything else (unknown_deck).
DeckName = Annotated[
    str,
    Field(
        json_schema_extra={"anyOf": [{"enum": sorted(OFFICIAL_DECKS)}, {"pattern": CUSTOM_DECK_ID_PATTERN}]}
    ),
]


class _GameSettings(Request):
    decks: list[DeckName] | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_DECKS,
        json_schema_extra={"uniqueItems": True},
        examples=[["base", "daydreams"]],
        description="Decks to deal from, each once: official decks by name, your own ready decks by id "
        "(default: base)",
    )
    target_score: TargetScore | None = Field(default=None, examples=[30])
    move_timeout_hours: TimeoutHours = Field(
        default=DEFAULT_MOVE_TIMEOUT_HOURS,
        examples=[48],
        description="How long each owed move may take before the timeout policy applies",
    )
    # Lax for the enums: JSON has none, so the string is what a client sends.
    visibility: Visibility = Field(default=Visibility.PUBLIC, strict=False)
    timeout_policy: TimeoutPolicy = Field(
        default=TimeoutPolicy.SKIP,
        strict=False,
        description="`skip`: a missed deadline moves the game on without the silent one; `wait`: remind only",
    )


class CreateClassicGame(_GameSettings):
    """Classic rules (the default): 3 to 6 seats."""

    rules: Literal["classic"] = "classic"
    max_players: SeatsClassic | None = Field(
        default=None,
        examples=[6],
        description="Seats (default: the ruleset's maximum)",
    )


class CreateOdysseyGame(_GameSettings):
    """Odyssey rules: 3 to 12 seats."""

    rules: Literal["odyssey"]
    max_players: SeatsOdyssey | None = Field(
        default=None,
        examples=[12],
        description="Seats (default: the ruleset's maximum)",
    )


# The seats a game may have depend on its rules: one schema per ruleset says so exactly.
CreateGame = CreateClassicGame | CreateOdysseyGame


class JoinGame(Request):
    invite_code: str | None = Field(default=None, max_length=64)


class GiveClue(Request):
    card_id: CardId
    clue: str = Field(
        min_length=1,
        max_length=MAX_CLUE_LENGTH,
        pattern=TEXT_PATTERN,
        examples=["the last door"],
        description=f"At most {MAX_CLUE_BYTES} bytes in UTF-8, no unassigned code points",
    )


class ChooseCards(Request):
    card_ids: list[CardId] = Field(min_length=1, max_length=12, examples=[["base-042"]])


class Card(BaseModel):
    card_id: str
    image_url: str | None


class SettingsOut(BaseModel):
    rules: str
    decks: list[str]
    max_players: int
    target_score: int
    move_timeout_hours: int
    timeout_policy: TimeoutPolicy


class SeatOut(BaseModel):
    player_id: str
    name: str
    score: int
    hand_size: int


class RoundOut(BaseModel):
    number: int
    storyteller_id: str
    clue: str | None
    table: list[Card] = Field(description="Empty until voting; then the fixed, shuffled order")
    waiting_for: list[str]


class YouOut(BaseModel):
    player_id: str
    hand: list[Card]
    submitted: list[str]
    votes: list[str]


class CardResultOut(BaseModel):
    card_id: str
    image_url: str | None
    owner_id: str
    voter_ids: list[str]


class RoundResultOut(BaseModel):
    number: int
    storyteller_id: str
    clue: str
    storyteller_card: str
    cards: list[CardResultOut]
    points: dict[str, int]


class GameOut(BaseModel):
    game_id: str
    version: int
    phase: Phase
    rules: str
    settings: SettingsOut
    visibility: Visibility
    host_id: str
    invite_code: str | None = Field(description="Shown to members only")
    players: list[SeatOut]
    round: RoundOut | None
    you: YouOut | None = Field(description="Null for a spectator")
    last_round: RoundResultOut | None
    winners: list[str]
    end_reason: EndReason | None = Field(description="Why the game ended; null until it has")
    created_at: str
    updated_at: str


class OpenGameOut(BaseModel):
    game_id: str
    rules: str
    host_id: str
    players: list[str]
    max_players: int
    created_at: str


class OpenGames(BaseModel):
    games: list[OpenGameOut]


class InboxGame(BaseModel):
    game_id: str
    phase: Phase
    your_turn: bool
    round_number: int | None
    waiting_for: list[str]
    players: int
    updated_at: str


class Inbox(BaseModel):
    games: list[InboxGame]


class Rounds(BaseModel):
    rounds: list[RoundResultOut]


class DeckOut(BaseModel):
    deck_id: str
    name: str
    card_count: int


class Decks(BaseModel):
    decks: list[DeckOut]


class DeckCards(BaseModel):
    deck_id: str
    cards: list[Card]


class CreateDeck(Request):
    # The rules check a deck's name as they check a player's: the same limits, stated here.
    name: str = Field(
        min_length=1,
        max_length=MAX_NAME_LENGTH,
        pattern=TEXT_PATTERN,
        examples=["Our holiday photos"],
        description=f"At most {MAX_NAME_BYTES} bytes in UTF-8, no unassigned code points",
    )
    card_count: CardCount = Field(examples=[24])


class UploadForm(BaseModel):
    """A presigned S3 POST: send `fields` and then the file (as `file`) as multipart/form-data to `url`."""

    card_id: str
    url: str
    fields: dict[str, str]


class DeckCreated(BaseModel):
    deck_id: str
    name: str
    card_count: int
    uploads: list[UploadForm] = Field(
        description="One form per card; JPEG, PNG or WebP up to 5 MB, with a Content-Type of image/…"
    )


class DeckCardStatus(BaseModel):
    card_id: str
    status: Literal["pending", "ready", "rejected"]
    reason: str | None = None
    image_url: str | None


class DeckDetail(BaseModel):
    deck_id: str
    name: str
    card_count: int
    official: bool
    ready: bool
    cards: list[DeckCardStatus]
