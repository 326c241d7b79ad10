"""Muting a player: their messages are hidden from you, at every table, until you unmute them. Yours
alone: they are not told, and nobody else's view changes. Kept in your partition, so they are in your
export and go with your account."""

from __future__ import annotations

from app.core.records import PlayerRecord
from app.talk.player_lists import check_addition
from app.talk.ports import Talking

# Enough for anyone's bad experiences; a bound, so one player cannot grow their partition without end.
MAX_MUTED = 500


def mute(ports: Talking, player: PlayerRecord, muted_id: str) -> None:
    check_addition(ports, player, muted_id, ports.talk.muted_players, verb="mute", most=MAX_MUTED)
    ports.talk.mute_player(player.player_id, muted_id, at=ports.now_iso())


def unmute(ports: Talking, player: PlayerRecord, muted_id: str) -> None:
    ports.talk.unmute_player(player.player_id, muted_id)


def muted(ports: Talking, player: PlayerRecord) -> list[str]:
    return sorted(ports.talk.muted_players(player.player_id))
