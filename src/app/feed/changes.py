"""Game events off the move path: one game change of the table's stream -> feed items and webhooks.

The Streams consumer (handlers/game_stream.py) calls `handle_change` for each change of a
game item, in the same record handler as its notifications.
"""

from __future__ import annotations

from typing import Any

from app.core.services import Services
from app.core.telemetry import logger
from app.feed import feed
from app.games import state_codec
from dixit.state import GameState


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
    events = feed.record_change(
        services,
        services.webhook_queue,
        _state(old_image),
        new,
        occurred_at=committed_at if isinstance(committed_at, str) else None,
    )
    if events:
        logger.info(
            "game events recorded",
            extra={"game_id": new.game_id, "version": new.version, "events": len(events)},
        )
    return len(events)
