"""`FeedStore` in memory: each member's copy of a game's events, and when each item is set to expire.

DynamoDB's TTL deletes expired items some time later; nothing here deletes them, but `expiry` shows what
the table would hold in `expires_at`, for tests of when a finished game's feed goes.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from app.core.records import FeedItem


class MemoryFeedStore:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        # (game id, player id) -> position -> (item, expires_at)
        self._feed: dict[tuple[str, str], dict[str, tuple[FeedItem, int | None]]] = {}

    def put_feed_items(self, items: Sequence[FeedItem], *, expires_at: int | None) -> None:
        with self._lock:
            for item in items:
                # A put replaces the whole item, its expiry too (none when `expires_at` is None).
                self._feed.setdefault((item.game_id, item.player_id), {})[item.position] = (item, expires_at)

    def expire_feed(self, game_id: str, *, expires_at: int) -> None:
        with self._lock:
            for (game, _), items in self._feed.items():
                if game == game_id:
                    for position, (item, _) in items.items():
                        items[position] = (item, expires_at)

    def list_feed(self, game_id: str, player_id: str, *, after: str, limit: int) -> list[FeedItem]:
        feed = self._feed.get((game_id, player_id), {})
        return [feed[p][0] for p in sorted(feed) if p > after][:limit]

    def expiry(self, game_id: str) -> dict[tuple[str, str], int | None]:
        """(player id, position) -> expires_at of every feed item of the game (not a port method)."""
        return {
            (player, position): expires_at
            for (game, player), items in self._feed.items()
            if game == game_id
            for position, (_, expires_at) in items.items()
        }
