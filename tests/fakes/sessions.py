"""`SessionStore` in memory, beside a `PlayerStore` double whose profiles hold the legacy tokens."""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Any

from app.core.errors import VersionConflict
from app.core.records import PlayerRecord
from app.players.ports import LEGACY_DEVICE, LEGACY_SESSION, SessionRecord


class MemorySessionStore:
    """Sessions by (player id, session id); the legacy session is read from and written to the profile
    in `players` (any PlayerStore double with get_player and replace_token), as on DynamoDB."""

    def __init__(self, players: Any) -> None:
        self.players = players
        self._sessions: dict[tuple[str, str], SessionRecord] = {}
        # What DynamoDB keeps on the profile beside a legacy token: last use, previous hash, key id.
        self._legacy_extra: dict[str, tuple[str, str, str]] = {}
        self._lock = threading.RLock()

    def create_session(self, session: SessionRecord) -> None:
        with self._lock:
            key = (session.player_id, session.session_id)
            if key in self._sessions or session.session_id == LEGACY_SESSION:
                raise VersionConflict(None)
            self._sessions[key] = session

    def _legacy(self, profile: PlayerRecord | None) -> SessionRecord | None:
        if profile is None or not profile.token_hash:
            return None
        issued = profile.token_issued
        used, previous, key = self._legacy_extra.get(profile.player_id, ("", "", ""))
        return SessionRecord(
            profile.player_id,
            LEGACY_SESSION,
            LEGACY_DEVICE,
            profile.token_hash,
            profile.created_at,
            used or issued,
            issued,
            previous,
            key,
        )

    def _get(self, player_id: str, session_id: str) -> SessionRecord | None:
        if session_id == LEGACY_SESSION:
            return self._legacy(self.players.get_player(player_id))
        return self._sessions.get((player_id, session_id))

    def signed_in(self, player_id: str, session_id: str) -> tuple[PlayerRecord | None, SessionRecord | None]:
        with self._lock:
            return self.players.get_player(player_id), self._get(player_id, session_id)

    def list_sessions(self, player_id: str) -> list[SessionRecord]:
        with self._lock:
            found = [s for (owner, _), s in self._sessions.items() if owner == player_id]
            legacy = self._get(player_id, LEGACY_SESSION)
            everything = found if legacy is None else [legacy, *found]
            return sorted(everything, key=lambda s: (s.created_at, s.session_id))

    def replace_token(
        self,
        player_id: str,
        session_id: str,
        *,
        old_hash: str,
        new_hash: str,
        issued_at: str,
        rotated_under: str = "",
    ) -> bool:
        with self._lock:
            session = self._get(player_id, session_id)
            if session is None or not old_hash or session.token_hash != old_hash:
                return False
            previous = old_hash if rotated_under else ""
            if session_id == LEGACY_SESSION:
                if not self.players.replace_token(
                    player_id, old_hash=old_hash, new_hash=new_hash, issued_at=issued_at
                ):
                    return False
                self._legacy_extra[player_id] = (session.last_used_at, previous, rotated_under)
                return True
            self._sessions[(player_id, session_id)] = replace(
                session,
                token_hash=new_hash,
                issued_at=issued_at,
                previous_hash=previous,
                rotated_under=rotated_under,
            )
            return True

    def delete_session(self, player_id: str, session_id: str, *, token_hash: str | None = None) -> bool:
        with self._lock:
            session = self._get(player_id, session_id)
            if session is None or (token_hash is not None and session.token_hash != token_hash):
                return False
            if session_id == LEGACY_SESSION:
                self._legacy_extra.pop(player_id, None)
                return bool(
                    self.players.replace_token(
                        player_id, old_hash=session.token_hash, new_hash="", issued_at=session.issued_at
                    )
                )
            del self._sessions[(player_id, session_id)]
            return True

    def erase_player(self, player_id: str) -> int:
        """Every session of the player (the legacy one is on the profile, which goes with it)."""
        with self._lock:
            mine = [key for key in self._sessions if key[0] == player_id]
            for key in mine:
                del self._sessions[key]
            self._legacy_extra.pop(player_id, None)
            return len(mine)

    def touch(self, player_id: str, session_id: str, *, used_at: str, older_than: str) -> None:
        with self._lock:
            session = self._get(player_id, session_id)
            if session is None or session.last_used_at >= older_than:
                return
            if session_id == LEGACY_SESSION:
                self._legacy_extra[player_id] = (used_at, session.previous_hash, session.rotated_under)
            else:
                self._sessions[(player_id, session_id)] = replace(session, last_used_at=used_at)
