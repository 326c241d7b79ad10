"""What the email channel needs from storage: its send claims, suppressed addresses and the digest index.

Kept apart from `app.notify.ports.NotificationStore` (devices, mutes): these items belong to email alone.
"""

from __future__ import annotations

from typing import Protocol

from dixit.lean_dataclass import dataclass


class MailLedger(Protocol):
    """Claims that make each email go at most once, and the addresses mail must no longer go to."""

    def claim_mail(self, player_id: str, slot: str, dedupe_id: str, *, now: int, window_seconds: int) -> bool:
        """Take the player's `slot` for `dedupe_id` unless it was taken in the last `window_seconds`.

        One conditional write, so concurrent senders cannot both win. The same `dedupe_id` takes it
        again while its mail is not marked sent (a retry after a failed send), never once it is.
        """
        ...

    def mark_mail_sent(self, player_id: str, slot: str, dedupe_id: str) -> None:
        """The claim's mail went out: a replay of `dedupe_id` finds the slot taken for good."""
        ...

    def release_mail(self, player_id: str, slot: str, dedupe_id: str) -> None:
        """Give the slot back after a failed send (only while `dedupe_id` holds it and sent nothing)."""
        ...

    def suppress_address(self, address: str, *, reason: str, at: str) -> None:
        """Mail to `address` bounced for good or was reported as spam: send it nothing more."""
        ...

    def address_suppressed(self, address: str) -> bool: ...


@dataclass(frozen=True, slots=True)
class DigestEntry:
    """A player whose daily digest is due at `utc_hour` (the next time their local `hour` comes round)."""

    player_id: str
    time_zone: str
    hour: int
    utc_hour: int


class DigestIndex(Protocol):
    """Players by the UTC hour their digest is next due, sharded so no key is shared by every player."""

    def put_digest(self, entry: DigestEntry) -> None:
        """File the player under `entry.utc_hour`, out of wherever they were filed before."""
        ...

    def remove_digest(self, player_id: str) -> None:
        """The player wants no digest: out of the index (idempotent)."""
        ...

    def due_digests(self, utc_hour: int, shard: int) -> list[DigestEntry]:
        """The entries filed under (`utc_hour`, `shard`): one query, whatever the number of players."""
        ...
