"""The table's stream for use-case tests, over whichever store they run on: what GameStreamFunction
would be handed after each game write, handed to it on demand (the round history, the inbox, the feed
are its to write)."""

from __future__ import annotations

from typing import Any

from app.services import Services
from handlers.game_stream import consume


class GameStream:
    """From its creation on: the in-memory game store's kept changes, or the moto table's stream."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self._feed: Any = None
        if not hasattr(services.games, "take_changes"):
            from tests.api.stream import StreamFeed  # the DynamoDB adapters, over moto
            from tests.support.aws import TABLE

            self._feed = StreamFeed(TABLE)
        else:
            services.games.take_changes()  # type: ignore[attr-defined]

    def deliver(self) -> int:
        """Run the consumer on every game write since the last call; how many changes it was handed."""
        if self._feed is not None:
            from tests.api.stream import invoke_notify

            event = self._feed.event()
            if event["Records"]:
                assert invoke_notify(event) == {"batchItemFailures": []}
            return len(event["Records"])
        return deliver(self.services)


def deliver(services: Services) -> int:
    """The in-memory game store's changes since the last call, through `consume`, in commit order."""
    store: Any = services.games  # the double, or a wrapper of it (tests/app/staging.py)
    consumed = 0
    while changes := store.take_changes():
        for old, new in changes:
            consume(old, new, services)
            consumed += 1
    return consumed
