"""Telling a finished game's players that its rematch lobby opened: "<name> opened a rematch — join".

The game change flow (app.flows.game_change) asks `invitations` when a change created a rematch lobby.
Only the lobby's creation counts (the item is new, and names the game it rematches:
`GameRecord.rematch_of`), so however many players call rematch, the conditional create lets one insert
through and each other player hears of it once; a
redelivered stream record makes the same notifications, with the same dedupe ids, which every channel
recognises (the email ledger's claim, the push tag). Who is seated already (the opener) is not told.
"""

from __future__ import annotations

from app.notify.messages import Kind, Notification
from dixit.state import GameState


def invitations(
    finished: GameState | None, new: GameState | None, invite_code: str | None
) -> list[Notification]:
    """One `rematch` notification per player of the `finished` game not seated in the `new` lobby
    (nobody, when no rematch lobby was just created: `finished` is None then)."""
    if finished is None or new is None:
        return []
    host = new.player(new.host_id)
    return [
        Notification(
            Kind.REMATCH,
            new.game_id,
            player_id,
            occasion=finished.game_id,
            phase=new.phase.value,
            rematch_of=finished.game_id,
            opener_name=None if host is None else host.name,
            invite_code=invite_code,
        )
        for player_id in finished.player_ids
        if new.player(player_id) is None
    ]
