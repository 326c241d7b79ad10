"""The notification outbox in memory: a queue per channel that keeps what was enqueued (and can deliver
it at once, as an event source would), and the send ledger."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from app.notify.outbox_ports import Claim
from app.notify.preferences import Channel


class MemoryNotificationQueue:
    """Implements app.notify.outbox_ports.NotificationQueue.

    `consumer`, when set, is called with (channel, body) for each enqueued body, as the queue's function
    would be (tests/support/services wires the app's delivery there); a body it leaves undelivered stays
    in `pending`. Without one, bodies wait in `pending` for a test to hand them on.
    """

    def __init__(self, channels: Sequence[Channel] = tuple(Channel)) -> None:
        self.channels = frozenset(channels)
        self.pending: list[tuple[Channel, str]] = []
        self.enqueued: list[tuple[Channel, str]] = []
        self.refuse: set[Channel] = set()  # channels whose queue refuses every body
        self.refuse_calls = 0  # this many enqueue calls from now on are refused whole (a passing outage)
        self.delayed: list[tuple[Channel, str, int]] = []  # (channel, receipt handle, delay)
        self.dead: list[tuple[Channel, str, str]] = []  # (channel, body, reason)
        self.consumer: Callable[[Channel, str], bool] | None = None

    def configured(self, channel: Channel) -> bool:
        return channel in self.channels

    def enqueue(self, channel: Channel, bodies: Sequence[str]) -> list[str]:
        if self.refuse_calls > 0:
            self.refuse_calls -= 1
            return list(bodies)
        if channel in self.refuse or channel not in self.channels:
            return list(bodies)
        for body in bodies:
            self.enqueued.append((channel, body))
            delivered = self.consumer is not None and self.consumer(channel, body)
            if not delivered:
                self.pending.append((channel, body))
        return []

    def take(self, channel: Channel | None = None) -> list[tuple[Channel, str]]:
        """Remove and return the pending bodies (of `channel`, or all)."""
        taken = [p for p in self.pending if channel is None or p[0] is channel]
        self.pending = [p for p in self.pending if p not in taken]
        return taken

    def retry_later(self, channel: Channel, receipt_handle: str, delay_seconds: int) -> None:
        self.delayed.append((channel, receipt_handle, delay_seconds))

    def dead_letter(self, channel: Channel, body: str, reason: str) -> bool:
        self.dead.append((channel, body, reason))
        return True


@dataclass
class _Entry:
    claimed_until: int
    sent: bool = False


class MemorySendLedger:
    """Implements app.notify.outbox_ports.SendLedger."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: dict[tuple[str, str], _Entry] = {}

    def erase_player(self, player_id: str) -> int:
        with self._lock:
            mine = [key for key in self._entries if key[0] == player_id]
            for key in mine:
                del self._entries[key]
            return len(mine)

    def claim_send(self, player_id: str, send_id: str, *, now: int, claim_seconds: int) -> Claim:
        with self._lock:
            entry = self._entries.get((player_id, send_id))
            if entry is not None and entry.sent:
                return Claim.SENT
            if entry is not None and entry.claimed_until > now:
                return Claim.BUSY
            self._entries[(player_id, send_id)] = _Entry(now + claim_seconds)
            return Claim.CLAIMED

    def mark_sent(self, player_id: str, send_id: str, *, now: int) -> None:
        with self._lock:
            self._entries.setdefault((player_id, send_id), _Entry(now)).sent = True

    def release_send(self, player_id: str, send_id: str) -> None:
        with self._lock:
            entry = self._entries.get((player_id, send_id))
            if entry is not None and not entry.sent:
                entry.claimed_until = 0

    def sent(self, player_id: str, send_id: str) -> bool:
        entry = self._entries.get((player_id, send_id))
        return entry is not None and entry.sent
