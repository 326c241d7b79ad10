"""`PlayerStore` in memory: profiles on the shared `MemoryTable`, where webhook registrations look.

replace_token is the legacy session's token on the profile, which MemorySessionStore writes through.
"""

from __future__ import annotations

from dataclasses import replace

from app.core.errors import VersionConflict
from app.core.records import PlayerRecord

from .table import MemoryTable


class MemoryPlayerStore:
    def __init__(self, table: MemoryTable | None = None) -> None:
        self.table = table if table is not None else MemoryTable()

    def create_player(self, player: PlayerRecord) -> None:
        with self.table.lock:
            if player.player_id in self.table.players:
                raise VersionConflict(None)
            self.table.players[player.player_id] = player

    def get_player(self, player_id: str) -> PlayerRecord | None:
        return self.table.players.get(player_id)

    def keep_player(self, player_id: str) -> None:
        with self.table.lock:
            player = self.table.players.get(player_id)
            if player is not None:
                self.table.players[player_id] = replace(player, expires_at=None)

    def rename_player(self, player_id: str, name: str) -> bool:
        with self.table.lock:
            player = self.table.players.get(player_id)
            if player is None:
                return False
            self.table.players[player_id] = replace(player, name=name)
            return True

    def delete_player_data(self, player_id: str) -> int:
        return self.table.erase_partition(player_id)

    def replace_token(self, player_id: str, *, old_hash: str, new_hash: str, issued_at: str) -> bool:
        with self.table.lock:
            player = self.table.players.get(player_id)
            if player is None or player.token_hash != old_hash:
                return False
            self.table.players[player_id] = replace(player, token_hash=new_hash, token_issued_at=issued_at)
            return True
