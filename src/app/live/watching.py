"""Answering a client's frame: watching a game it may read, no longer watching it, a ping.

Who may watch a game is who may read it (GET /games/{id}): its members, and anyone when it is public. A
refusal says what that GET would say (game_not_found, not_a_member), nothing more. The player's inbox needs
no watch: every connection hears of its player's games (app.live.fanout).
"""

from __future__ import annotations

from typing import Any

from app.core.records import Visibility
from app.live.connections import CONNECTION_SECONDS
from app.live.frames import FrameError, error_frame, parse_frame
from app.live.ports import Watching

# Enough for a player's open tabs' games; each watch is an item every change of its game reads.
MOST_WATCHES_PER_CONNECTION = 20


def on_frame(ports: Watching, connection_id: str, raw: str | bytes | None, *, now: int) -> dict[str, Any]:
    """The frame answering `raw`, sent back on the same connection."""
    try:
        frame = parse_frame(raw)
    except FrameError as refused:
        return error_frame(refused.code, refused.message)
    if frame.action == "ping":
        return {"type": "pong"}
    game_id = frame.game_id or ""
    player_id = ports.live.player_of(connection_id, now=now)
    if player_id is None:
        # Its item expired or was forgotten after a failed post: the client should reconnect.
        return error_frame("connection_unknown", "this connection is no longer known; reconnect")
    if frame.action == "unwatch":
        ports.live.remove_watch(connection_id, game_id)
        return {"type": "unwatched", "game_id": game_id}
    stamp = ports.games.game_stamp(game_id)
    if stamp is None:
        return error_frame("game_not_found", f"there is no game {game_id}", game_id)
    if player_id not in stamp.member_ids and stamp.visibility is Visibility.PRIVATE:
        return error_frame("not_a_member", "this game is private", game_id)
    if not ports.live.add_watch(
        connection_id,
        player_id,
        game_id,
        expires_at=now + CONNECTION_SECONDS,
        most=MOST_WATCHES_PER_CONNECTION,
    ):
        return error_frame(
            "too_many_watches",
            f"a connection watches at most {MOST_WATCHES_PER_CONNECTION} games; unwatch one first",
            game_id,
        )
    return {"type": "watching", "game_id": game_id, "version": stamp.version}
