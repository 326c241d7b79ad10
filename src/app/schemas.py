"""The public JSON contract: request and response bodies, snake_case, as third-party clients see them."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.records import Visibility
from dixit import limits
from dixit.limits import MAX_CLUE_LENGTH, MAX_NAME_LENGTH
from dixit.settings import TimeoutPolicy
from dixit.state import EndReason, Phase


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Problem(BaseModel):
    """RFC 9457 problem details, with a stable machine-readable `code`."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    code: str
    errors: list[dict[str, object]] | None = None


class CreatePlayer(Request):
    name: str = Field(max_length=MAX_NAME_LENGTH, examples=["Ada"])


class PlayerCreated(BaseModel):
    player_id: str
    name: str
    token: str = Field(description="Bearer token; shown only in this response")


class PlayerOut(BaseModel):
    player_id: str
    name: str


class CreateGame(Request):
    rules: Literal["classic", "odyssey"] = "classic"
    decks: list[str] | None = Field(default=None, max_length=20, examples=[["base", "daydreams"]])
    max_players: int | None = Field(default=None, examples=[6])
    target_score: int | None = Field(default=None, examples=[30])
    visibility: Visibility = Visibility.PUBLIC
    move_timeout_hours: int = Field(
        default=limits.DEFAULT_MOVE_TIMEOUT_HOURS,
        ge=limits.MIN_MOVE_TIMEOUT_HOURS,
        le=limits.MAX_MOVE_TIMEOUT_HOURS,
        description="How long each owed move may take before the timeout policy applies",
        examples=[48],
    )
    timeout_policy: TimeoutPolicy = Field(
        default=TimeoutPolicy.SKIP,
        description="`skip`: a missed deadline moves the game on without the silent one; `wait`: remind only",
    )


class JoinGame(Request):
    invite_code: str | None = Field(default=None, max_length=64)


class GiveClue(Request):
    card_id: str = Field(max_length=64, examples=["base-017"])
    clue: str = Field(max_length=MAX_CLUE_LENGTH, examples=["the last door"])


class ChooseCards(Request):
    card_ids: list[str] = Field(max_length=12, examples=[["base-042"]])


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
    name: str = Field(max_length=200, examples=["Our holiday photos"])
    card_count: int = Field(examples=[24], description="6 to 200 cards")


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
