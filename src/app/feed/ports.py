"""What the feed needs from storage: each member's copy of a game's events, in order; and the few ports
its use cases read (the composition's Services has them all, and so fits each)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from app.core.clock import Clock, WallClock
from app.core.records import FeedItem
from app.games.ports import Games

if TYPE_CHECKING:
    from app.core.settings import AppSettings


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


class Feed(Protocol):
    """Each member's copy of a game's events."""

    feed: FeedStore


class FeedWriting(Feed, Clock, WallClock, Protocol):
    """Writing a change's events: the store, the feed's time to live after a game ends, and the clock."""

    settings: AppSettings


class FeedReading(Feed, Games, Protocol):
    """A member's feed of a game: the game (who may read it) and the feed."""
