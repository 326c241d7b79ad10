"""Telling a finished game's players that its rematch lobby opened: "<name> opened a rematch — join".

The stream consumer asks `invitations` for each game item change. Only the lobby's creation counts (the
item is new, and names the game it rematches: `GameRecord.rematch_of`), so however many players call
rematch, the conditional create lets one insert through and each other player hears of it once; a
redelivered stream record makes the same notifications, with the same dedupe ids, which every channel
recognises (the email ledger's claim, the push tag). Who is seated already (the opener) is not told.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.ports import Games
from app.notify.messages import Kind, Notification
from dixit.state import GameState, Phase


def invitations(
    services: Games, old: GameState | None, new: GameState | None, new_image: Mapping[str, Any]
) -> list[Notification]:
    """One `rematch` notification per player of the finished game not seated in the new lobby."""
    finished_id = new_image.get("rematch_of")
    if old is not None or new is None or new.phase is not Phase.LOBBY or not isinstance(finished_id, str):
        return []
    finished = services.games.load_game(finished_id)
    if finished is None:
        return []  # deleted since (every player erased): nobody left to tell
    host = new.player(new.host_id)
    code = new_image.get("invite_code")
    return [
        Notification(
            Kind.REMATCH,
            new.game_id,
            player_id,
            occasion=finished_id,
            phase=new.phase.value,
            rematch_of=finished_id,
            opener_name=None if host is None else host.name,
            invite_code=code if isinstance(code, str) else None,
        )
        for player_id in finished.state.player_ids
        if new.player(player_id) is None
    ]
