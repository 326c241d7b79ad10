"""Game events off the move path: one game change of the table's stream -> feed items and webhooks.

The Streams consumer (handlers/game_stream.py) calls `handle_change` for each change of a
game item, in the same record handler as its notifications.
"""

from __future__ import annotations

from typing import Any

from app.core.telemetry import logger
from app.feed import feed
from app.feed.events import Event
from app.games import state_codec
from app.services import Services
from dixit.state import GameState, Phase


def _state(image: dict[str, Any] | None) -> GameState | None:
    return state_codec.stored(image)


def handle_change(
    old_image: dict[str, Any] | None,
    new_image: dict[str, Any] | None,
    services: Services,
) -> int:
    """Feed and webhooks for one change of a game item (deserialized images); how many events it made."""
    new = _state(new_image)
    if new is None:
        return 0  # a deleted game item: nothing happened in the game
    # The commit time, not now: a replayed record then rewrites exactly the same events.
    committed_at = (new_image or {}).get("updated_at")
    old = _state(old_image)
    occurred_at = committed_at if isinstance(committed_at, str) else None
    events = feed.record_change(services, services.webhook_queue, old, new, occurred_at=occurred_at)
    events += _rematch(services, old, new, new_image or {}, occurred_at)
    if events:
        logger.info(
            "game events recorded",
            extra={"game_id": new.game_id, "version": new.version, "events": len(events)},
        )
    return len(events)


def _rematch(
    services: Services,
    old: GameState | None,
    new: GameState,
    new_image: dict[str, Any],
    occurred_at: str | None,
) -> list[Event]:
    """A rematch lobby just created (its item names the finished game): that game's `rematch.opened`."""
    finished_id = new_image.get("rematch_of")
    if old is not None or new.phase is not Phase.LOBBY or not isinstance(finished_id, str):
        return []
    finished = services.games.load_game(finished_id)
    if finished is None:
        return []
    return feed.record_rematch(
        services,
        services.webhook_queue,
        finished.state,
        new,
        occurred_at=occurred_at or services.now_iso(),
    )
