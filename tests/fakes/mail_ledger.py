"""`MailLedger` and `DigestIndex` in memory: the email channel's claims, suppressions and digest index."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from app.notify.email.digest_schedule import digest_shard
from app.notify.email.ports import DigestEntry


@dataclass
class _Claim:
    claimed_at: int | None
    dedupe_id: str
    sent: bool


class MemoryMailLedger:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._claims: dict[tuple[str, str], _Claim] = {}
        self.suppressed: dict[str, str] = {}  # lower-cased address -> reason

    def erase_player(self, player_id: str) -> int:
        with self._lock:
            mine = [key for key in self._claims if key[0] == player_id]
            for key in mine:
                del self._claims[key]
            return len(mine)

    def claim_mail(self, player_id: str, slot: str, dedupe_id: str, *, now: int, window_seconds: int) -> bool:
        with self._lock:
            claim = self._claims.get((player_id, slot))
            free = (
                claim is None
                or claim.claimed_at is None
                or claim.claimed_at <= now - window_seconds
                or (claim.dedupe_id == dedupe_id and not claim.sent)
            )
            if free:
                self._claims[(player_id, slot)] = _Claim(now, dedupe_id, False)
            return free

    def mark_mail_sent(self, player_id: str, slot: str, dedupe_id: str) -> None:
        with self._lock:
            claim = self._claims.get((player_id, slot))
            if claim is not None and claim.dedupe_id == dedupe_id and not claim.sent:
                claim.sent = True

    def release_mail(self, player_id: str, slot: str, dedupe_id: str) -> None:
        with self._lock:
            claim = self._claims.get((player_id, slot))
            if claim is not None and claim.dedupe_id == dedupe_id and not claim.sent:
                claim.claimed_at = None

    def suppress_address(self, address: str, *, reason: str, at: str) -> None:
        with self._lock:
            self.suppressed[address.strip().lower()] = reason

    def address_suppressed(self, address: str) -> bool:
        return address.strip().lower() in self.suppressed


class MemoryDigestIndex:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._filed: dict[str, DigestEntry] = {}  # player id -> entry
        self.queried: list[tuple[int, int]] = []  # (utc hour, shard) of each query, to prove no Scan

    def put_digest(self, entry: DigestEntry) -> None:
        with self._lock:
            self._filed[entry.player_id] = entry

    def remove_digest(self, player_id: str) -> None:
        with self._lock:
            self._filed.pop(player_id, None)

    def due_digests(self, utc_hour: int, shard: int) -> list[DigestEntry]:
        with self._lock:
            self.queried.append((utc_hour, shard))
            return sorted(
                (
                    e
                    for e in self._filed.values()
                    if e.utc_hour == utc_hour and digest_shard(e.player_id) == shard
                ),
                key=lambda e: e.player_id,
            )

    def entry(self, player_id: str) -> DigestEntry | None:
        return self._filed.get(player_id)
