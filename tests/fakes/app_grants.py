"""`AppGrantStore` and `CodeStore` in memory, under one lock each, with the DynamoDB adapters' contract:
a grant only for a player whose profile exists and only from the code noted as the app's newest (the note
used up, dropped by a revocation), rotation conditional on the refresh hash, a code taken by exactly one
caller."""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Any

from app.core.records import PlayerRecord
from app.oauth.ports import AuthorizationCode
from app.players.ports import AppGrantRecord


class MemoryAppGrantStore:
    def __init__(self, players: Any) -> None:
        self.players = players
        self._grants: dict[tuple[str, str], AppGrantRecord] = {}
        self._notes: dict[tuple[str, str], str] = {}  # the newest code hash given to each app
        self._lock = threading.RLock()

    def note_app_code(self, player_id: str, grant_id: str, code_hash: str, expires_at: int) -> None:
        with self._lock:
            self._notes[(player_id, grant_id)] = code_hash

    def put_app_grant(self, grant: AppGrantRecord, *, code_hash: str | None = None) -> bool:
        with self._lock:
            key = (grant.player_id, grant.grant_id)
            if self.players.get_player(grant.player_id) is None:
                return False
            if code_hash is not None:
                if self._notes.get(key) != code_hash:
                    return False
                del self._notes[key]
            self._grants[key] = grant
            return True

    def app_grant(self, player_id: str, grant_id: str) -> tuple[PlayerRecord | None, AppGrantRecord | None]:
        with self._lock:
            return self.players.get_player(player_id), self._grants.get((player_id, grant_id))

    def list_app_grants(self, player_id: str) -> list[AppGrantRecord]:
        with self._lock:
            found = [g for (owner, _), g in self._grants.items() if owner == player_id]
            return sorted(found, key=lambda g: (g.created_at, g.grant_id))

    def rotate_app_grant(self, old: AppGrantRecord, new: AppGrantRecord) -> bool:
        with self._lock:
            key = (old.player_id, old.grant_id)
            stored = self._grants.get(key)
            if stored is None or stored.refresh_hash != old.refresh_hash:
                return False
            self._grants[key] = replace(
                stored,
                access_hash=new.access_hash,
                access_expires_at=new.access_expires_at,
                refresh_hash=new.refresh_hash,
                rotated=new.rotated,
            )
            return True

    def delete_app_grant(self, player_id: str, grant_id: str) -> bool:
        with self._lock:
            if self._grants.pop((player_id, grant_id), None) is None:
                return False
            self._notes.pop((player_id, grant_id), None)
            return True

    def touch_app_grant(self, player_id: str, grant_id: str, *, used_at: str, older_than: str) -> None:
        with self._lock:
            grant = self._grants.get((player_id, grant_id))
            if grant is None or (grant.last_used_at and grant.last_used_at >= older_than):
                return
            self._grants[(player_id, grant_id)] = replace(grant, last_used_at=used_at)

    def erase_player(self, player_id: str) -> int:
        """Every grant of the player and every note of a code (they live in the player's partition)."""
        with self._lock:
            mine = [key for key in self._grants if key[0] == player_id]
            for key in mine:
                del self._grants[key]
            notes = [key for key in self._notes if key[0] == player_id]
            for key in notes:
                del self._notes[key]
            return len(mine) + len(notes)


class MemoryCodeStore:
    def __init__(self) -> None:
        self._codes: dict[str, AuthorizationCode] = {}
        self._lock = threading.Lock()

    def put_code(self, code: AuthorizationCode) -> None:
        with self._lock:
            self._codes[code.code_hash] = code

    def take_code(self, code_hash: str) -> AuthorizationCode | None:
        with self._lock:
            return self._codes.pop(code_hash, None)
