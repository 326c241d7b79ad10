"""`EmailStore` in memory: owners, codes and limit windows, beside the profiles of the shared `MemoryTable`
(the pending and confirmed address live on the profile, as on DynamoDB)."""

from __future__ import annotations

from dataclasses import replace

from app.players.addresses import address_id
from app.players.ports import CodeKey, Confirmed, PendingCode

from .table import MemoryTable


class MemoryEmailStore:
    def __init__(self, table: MemoryTable | None = None) -> None:
        self.table = table if table is not None else MemoryTable()
        self.owners: dict[str, str] = {}  # address id -> player id
        self.verifications: dict[str, PendingCode] = {}  # player id -> code
        self.sign_in_codes: dict[str, PendingCode] = {}  # address id -> code
        self.slots: dict[tuple[str, str, int], int] = {}  # (scope, key, window) -> hits
        # Erasing a player releases the address their profile confirmed, as the DynamoDB adapter does.
        self.table.partition_erasers.append(self._release_confirmed)

    def _release_confirmed(self, player_id: str) -> int:
        player = self.table.players.get(player_id)
        email = getattr(player, "email", "") if player is not None else ""
        self.verifications.pop(player_id, None)
        if email and self.owners.get(address_id(email)) == player_id:
            del self.owners[address_id(email)]
            return 1
        return 0

    def start_verification(self, player_id: str, pending: PendingCode) -> bool:
        with self.table.lock:
            player = self.table.players.get(player_id)
            if player is None:
                return False
            self.table.players[player_id] = replace(player, pending_email=pending.email)
            self.verifications[player_id] = pending
            return True

    def verification(self, player_id: str) -> PendingCode | None:
        return self.verifications.get(player_id)

    def confirm_email(
        self, player_id: str, pending: PendingCode, *, address: str, previous: str, max_attempts: int
    ) -> Confirmed:
        with self.table.lock:
            stored = self.verifications.get(player_id)
            player = self.table.players.get(player_id)
            if (
                stored is None
                or stored.code_hash != pending.code_hash
                or stored.attempts >= max_attempts
                or player is None
            ):
                return Confirmed.GONE
            if self.owners.get(address, player_id) != player_id:
                return Confirmed.TAKEN
            if previous and self.owners.get(previous, player_id) != player_id:
                return Confirmed.GONE
            del self.verifications[player_id]
            self.owners[address] = player_id
            if previous:
                self.owners.pop(previous, None)
            self.table.players[player_id] = replace(player, email=pending.email, pending_email="")
            return Confirmed.DONE

    def owner_of(self, address: str) -> str | None:
        return self.owners.get(address)

    def put_sign_in_code(self, address: str, pending: PendingCode) -> None:
        with self.table.lock:
            self.sign_in_codes[address] = pending

    def sign_in_code(self, address: str) -> PendingCode | None:
        return self.sign_in_codes.get(address)

    def use_sign_in_code(self, address: str, code_hash: str, *, now: int, max_attempts: int) -> bool:
        with self.table.lock:
            stored = self.sign_in_codes.get(address)
            if (
                stored is None
                or stored.code_hash != code_hash
                or stored.attempts >= max_attempts
                or stored.expires_at <= now
            ):
                return False
            del self.sign_in_codes[address]
            return True

    def count_wrong_code(self, key: CodeKey, code_hash: str, *, max_attempts: int) -> None:
        with self.table.lock:
            codes = self.verifications if key.kind == "verify" else self.sign_in_codes
            stored = codes.get(key.owner)
            if stored is not None and stored.code_hash == code_hash and stored.attempts < max_attempts:
                codes[key.owner] = replace(stored, attempts=stored.attempts + 1)

    def claim_slot(self, scope: str, key: str, *, window: int, limit: int, expires_at: int) -> bool:
        with self.table.lock:
            hits = self.slots.get((scope, key, window), 0)
            if hits >= limit:
                return False
            self.slots[(scope, key, window)] = hits + 1
            return True
