"""How long a game's talk lives: as long as the game, then as long as its event feed
(`FEED_TTL_AFTER_END_SECONDS`) after it ends, so members can still read what was said about the end.

A message written while the game is in play has no expiry; the stream consumer gives every message one
when the game finishes (`expire_at_the_end`). A message written after the end gets its expiry at once.
"""

from __future__ import annotations

from app.talk.ports import TalkExpiring
from dixit.state import GameState, Phase


def expiry_after_end(ports: TalkExpiring) -> int:
    return ports.now_epoch() + ports.settings.feed_ttl_after_end_seconds


def expiry_of_a_message_in(ports: TalkExpiring, state: GameState) -> int | None:
    return expiry_after_end(ports) if state.phase is Phase.FINISHED else None


def expire_at_the_end(ports: TalkExpiring, old: GameState | None, new: GameState | None) -> bool:
    """When a change finishes the game: let everything said at its table expire; whether it did."""
    if new is None or new.phase is not Phase.FINISHED:
        return False
    if old is not None and old.phase is Phase.FINISHED:
        return False
    ports.talk.expire_messages(new.game_id, expires_at=expiry_after_end(ports))
    return True
