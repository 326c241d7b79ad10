"""What more than one port reads in the game table, held in memory for the doubles that share it.

DynamoDB keeps every feature's items in one table, and a few are written through one port and read
through another: a game's membership items are written with the game (`GameStore`) and read and
refreshed by the inbox (`InboxStore`); a player's profile (`PlayerStore`) is what a webhook registration
checks for (`WebhookStore`). The doubles of those ports share one `MemoryTable`; everything only one port
reads stays inside that port's double. One lock guards the shared items, as one table's conditions do.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from app.core.records import Membership, PlayerRecord


@dataclass
class MemoryTable:
    lock: threading.RLock = field(default_factory=threading.RLock)
    # PLAYER#<id> / PROFILE
    players: dict[str, PlayerRecord] = field(default_factory=dict)
    # PLAYER#<id> / GAME#<game id>: player id -> the games they are a member of
    members: dict[str, set[str]] = field(default_factory=dict)
    # The inbox entries on those items: player id -> game id -> entry
    entries: dict[str, dict[str, Membership]] = field(default_factory=dict)
    # Finished games' entries, out of the active range: player id -> finished_key -> entry
    history: dict[str, dict[str, Membership]] = field(default_factory=dict)
    # What the doubles keeping other `PLAYER#<id>` items (sessions, webhooks, devices, mutes, an email)
    # register, so that erasing a player's partition reaches them: each erases a player's, and says
    # how many items went.
    partition_erasers: list[Callable[[str], int]] = field(default_factory=list)

    def erase_partition(self, player_id: str) -> int:
        """Every `PLAYER#<id>` item: memberships, history, then what the other doubles hold, then the
        profile (the sessions' eraser runs among the others; in memory nothing is in between)."""
        with self.lock:
            erased = len(self.members.pop(player_id, set())) + len(self.history.pop(player_id, {}))
            self.entries.pop(player_id, None)
            erased += sum(erase(player_id) for erase in self.partition_erasers)
            erased += self.players.pop(player_id, None) is not None
            return erased
