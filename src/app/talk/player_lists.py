"""What a player's mute and block lists check before one more name goes on them (app.talk.mutes,
app.talk.blocks): never yourself, only a player who exists, and a bound on the list."""

from __future__ import annotations

from collections.abc import Callable, Collection

from app.core.errors import Conflict, InvalidInput, NotFound
from app.core.records import PlayerRecord
from app.talk.ports import Talking


def check_addition(
    ports: Talking,
    player: PlayerRecord,
    other_id: str,
    listed: Callable[[str], Collection[str]],
    *,
    verb: str,
    most: int,
) -> None:
    """Refuse adding `other_id` to the list `listed` reads: the codes are `cannot_<verb>_yourself`,
    `player_not_found` and `too_many_<verb>s`. Adding a name already there passes (it is idempotent)."""
    if other_id == player.player_id:
        raise InvalidInput(f"cannot_{verb}_yourself", f"you cannot {verb} yourself")
    if ports.players.get_player(other_id) is None:
        raise NotFound("player_not_found", f"there is no player {other_id}")
    current = listed(player.player_id)
    if other_id not in current and len(current) >= most:
        raise Conflict(f"too_many_{verb}s", f"you may {verb} at most {most} players: un{verb} one first")
