"""`PersonalTokenStore` in memory: tokens by (player id, token id), counted against a cap under one lock,
and only for a player whose profile (in `players`) exists, as the DynamoDB transaction has it."""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Any

from app.core.errors import VersionConflict
from app.core.records import PlayerRecord
from app.players.ports import PersonalTokenRecord


class MemoryPersonalTokenStore:
    def __init__(self, players: Any) -> None:
        self.players = players
        self._tokens: dict[tuple[str, str], PersonalTokenRecord] = {}
        self._lock = threading.RLock()

    def create_personal_token(self, token: PersonalTokenRecord, *, limit: int) -> bool:
        with self._lock:
            key = (token.player_id, token.token_id)
            if key in self._tokens:
                raise VersionConflict(None)
            held = sum(1 for owner, _ in self._tokens if owner == token.player_id)
            if self.players.get_player(token.player_id) is None or held >= limit:
                return False
            self._tokens[key] = token
            return True

    def personal_token(
        self, player_id: str, token_id: str
    ) -> tuple[PlayerRecord | None, PersonalTokenRecord | None]:
        with self._lock:
            return self.players.get_player(player_id), self._tokens.get((player_id, token_id))

    def list_personal_tokens(self, player_id: str) -> list[PersonalTokenRecord]:
        with self._lock:
            found = [t for (owner, _), t in self._tokens.items() if owner == player_id]
            return sorted(found, key=lambda t: (t.created_at, t.token_id))

    def delete_personal_token(self, player_id: str, token_id: str) -> bool:
        with self._lock:
            if self.players.get_player(player_id) is None:
                return False
            return self._tokens.pop((player_id, token_id), None) is not None

    def touch_personal_token(self, player_id: str, token_id: str, *, used_at: str, older_than: str) -> None:
        with self._lock:
            token = self._tokens.get((player_id, token_id))
            if token is None or (token.last_used_at and token.last_used_at >= older_than):
                return
            self._tokens[(player_id, token_id)] = replace(token, last_used_at=used_at)

    def erase_player(self, player_id: str) -> int:
        """Every token of the player (they live in the player's partition)."""
        with self._lock:
            mine = [key for key in self._tokens if key[0] == player_id]
            for key in mine:
                del self._tokens[key]
            return len(mine)
