"""What the feed needs from storage: each member's copy of a game's events, in order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from app.core.records import FeedItem


class FeedStore(Protocol):
    def put_feed_items(self, items: Sequence[FeedItem], *, expires_at: int | None) -> None:
        """Write feed items; writing one again (a retried stream batch) replaces it with the same."""
        ...

    def expire_feed(self, game_id: str, *, expires_at: int) -> None:
        """Let every feed item of a finished game expire at `expires_at`."""
        ...

    def list_feed(self, game_id: str, player_id: str, *, after: str, limit: int) -> list[FeedItem]:
        """The player's feed items of the game whose position is after `after`, oldest first."""
        ...
