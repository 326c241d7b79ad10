"""Blocking a player: muted for you, and neither of you joins a public lobby the other is in; a private
game's host you blocked, or who blocked you, seats neither of you by invitation (app.games.play judges
the join). Yours alone, as mutes: they are not told, it is in your export and goes with your account."""

from __future__ import annotations

from app.core.records import PlayerRecord
from app.talk.player_lists import check_addition
from app.talk.ports import Talking

# A bound, so one player cannot grow their partition without end; far more than anyone's bad encounters.
MAX_BLOCKED = 200


def block(ports: Talking, player: PlayerRecord, blocked_id: str) -> None:
    check_addition(ports, player, blocked_id, ports.talk.blocked_players, verb="block", most=MAX_BLOCKED)
    ports.talk.block_player(player.player_id, blocked_id, at=ports.now_iso())


def unblock(ports: Talking, player: PlayerRecord, blocked_id: str) -> None:
    ports.talk.unblock_player(player.player_id, blocked_id)


def blocked(ports: Talking, player: PlayerRecord) -> list[str]:
    return sorted(ports.talk.blocked_players(player.player_id))
