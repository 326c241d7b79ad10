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

    @property
    def game_id(self) -> str:
        return self.state.game_id

    @property
    def version(self) -> int:
        return self.state.version
