"""Muting a player: their messages are hidden from you, at every table, until you unmute them. Yours
alone: they are not told, and nobody else's view changes. Kept in your partition, so they are in your
export and go with your account."""

from __future__ import annotations

from app.core.errors import Conflict, InvalidInput, NotFound
from app.core.records import PlayerRecord
from app.talk.ports import Talking

# Enough for anyone's bad experiences; a bound, so one player cannot grow their partition without end.
MAX_MUTED = 500


def mute(ports: Talking, player: PlayerRecord, muted_id: str) -> None:
    if muted_id == player.player_id:
        raise InvalidInput("cannot_mute_yourself", "you cannot mute yourself")
    if ports.players.get_player(muted_id) is None:
        raise NotFound("player_not_found", f"there is no player {muted_id}")
    muted = ports.talk.muted_players(player.player_id)
    if muted_id not in muted and len(muted) >= MAX_MUTED:
        raise Conflict("too_many_mutes", f"you may mute at most {MAX_MUTED} players: unmute one first")
    ports.talk.mute_player(player.player_id, muted_id, at=ports.now_iso())


def unmute(ports: Talking, player: PlayerRecord, muted_id: str) -> None:
    ports.talk.unmute_player(player.player_id, muted_id)


def muted(ports: Talking, player: PlayerRecord) -> list[str]:
    return sorted(ports.talk.muted_players(player.player_id))
