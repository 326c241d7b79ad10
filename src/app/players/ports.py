"""What the players feature needs from storage."""

from __future__ import annotations

from typing import Protocol

from app.core.records import PlayerRecord


class PlayerStore(Protocol):
    def create_player(self, player: PlayerRecord) -> None:
        """Raises VersionConflict when the id is taken."""
        ...

    def get_player(self, player_id: str) -> PlayerRecord | None: ...

    def replace_token(self, player_id: str, *, old_hash: str, new_hash: str, issued_at: str) -> bool:
        """Swap the player's token hash if it is still `old_hash` (False when another request won)."""
        ...
