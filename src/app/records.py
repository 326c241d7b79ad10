"""What the service keeps besides the rules state: players, and the game item's envelope."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from dixit.state import GameState


class Visibility(StrEnum):
    PUBLIC = "public"
    PRIVATE = "private"


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    player_id: str
    name: str
    token_hash: str
    created_at: str


@dataclass(slots=True)
class GameRecord:
    state: GameState
    visibility: Visibility
    invite_code: str
    created_at: str
    updated_at: str
    # The due index entry (epoch seconds): when the sweep must next look at the game (app.due_index).
    due_at: int | None = None
    # Ids of the requests whose writes made the latest versions, newest last: a request whose answer was
    # lost finds its id here and knows its write landed (app.games.RECENT_REQUESTS of them are kept).
    recent_requests: tuple[str, ...] = ()

    @property
    def game_id(self) -> str:
        return self.state.game_id

    @property
    def version(self) -> int:
        return self.state.version


@dataclass(frozen=True, slots=True)
class StoredAnswer:
    """The answer to an Idempotency-Key request, written in the same transaction as what it answers."""

    key_id: str  # a hash of (player, key, route): the record's identity
    fingerprint: str  # a hash of the request body: the same key with another body is refused
    payload: bytes  # the answer, compact and without image links (app.idempotency)
    expires_at: int  # epoch seconds; an expired answer is forgotten even before DynamoDB's TTL sweeps it


@dataclass(frozen=True, slots=True)
class FeedItem:
    """One event of a game as one member sees it; `position` orders a member's feed and is its cursor."""

    game_id: str
    player_id: str
    position: str  # "<game version, 10 digits>.<index within that version, 3 digits>"
    event_json: str
