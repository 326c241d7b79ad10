"""Rematch: a finished game's players open a new lobby with the same settings, one tap each.

The lobby's id is a pure function of the finished game's id, so every call for one game lands on the
same lobby without a write to the finished game: the first call creates it (a conditional create, which
refuses a second), every later call finds it. Each call also seats its caller, so "rematch" is the one
tap a player of the finished game makes, whether the lobby exists yet or not.
"""

from __future__ import annotations

import secrets
from typing import Protocol

from app.core.clock import Clock
from app.core.errors import Conflict, Forbidden, StoreUnavailable, VersionConflict
from app.core.records import GameRecord, PlayerRecord
from app.core.telemetry import count, logger
from app.games import due_index, quotas
from app.games import inbox as inbox_entries
from app.games import play as games
from app.games.ports import Games, Playing
from app.games.rematch_ids import rematch_id
from dixit import engine
from dixit.moves import Join
from dixit.state import Phase


def rematch_lobby(services: Games, player: PlayerRecord, game_id: str) -> tuple[str, GameRecord | None]:
    """The rematch lobby's id for the finished game `game_id`, and the lobby once someone opened it.

    Asked by the finished game's players (Forbidden `not_a_member`) once it is over (Conflict
    `game_not_finished`), the same as opening it: the answer to "is there a rematch to join?" without
    a 404 for the usual "not yet".
    """
    finished = _finished_game_of(services, player, game_id)
    lobby_id = rematch_id(finished.game_id)
    return lobby_id, services.games.load_game(lobby_id)


def _finished_game_of(services: Games, player: PlayerRecord, game_id: str) -> GameRecord:
    finished = games.load_game(services, game_id)
    if finished.state.player(player.player_id) is None:
        raise Forbidden("not_a_member", "only the players of a game may ask for its rematch")
    if finished.state.phase is not Phase.FINISHED:
        raise Conflict("game_not_finished", "a rematch opens once the game is over")
    return finished


def rematch(services: Playing, player: PlayerRecord, game_id: str) -> games.Played:
    """The rematch lobby of the finished game `game_id`, with `player` seated in it.

    Only the finished game's players may ask (Forbidden `not_a_member`), and only once it is over
    (Conflict `game_not_finished`).
    """
    finished = _finished_game_of(services, player, game_id)
    lobby_id = rematch_id(game_id)
    lobby = services.games.load_game(lobby_id)
    if lobby is None:
        # Opening the lobby makes the caller its host: held to a create's quotas, as every way to open
        # a lobby is (joining it later is held to a join's, by games.play).
        quotas.check_can_host(services, player, finished.visibility)
        lobby = _open(services, player, finished, lobby_id)
    if lobby.state.player(player.player_id) is not None:
        return games.Played(lobby)
    # The caller played the finished game: that is their invitation, whatever the lobby's visibility.
    return games.play(
        services, player, lobby_id, Join(player.player_id, player.name), invite_code=lobby.invite_code
    )


class _Opening(Games, Clock, Protocol):
    """Opening the lobby: a conditional create, stamped with the clock."""


def _open(services: _Opening, player: PlayerRecord, finished: GameRecord, lobby_id: str) -> GameRecord:
    state = engine.new_game(
        lobby_id,
        host_id=player.player_id,
        host_name=player.name,
        settings=finished.state.settings,
        seed=secrets.randbits(63),
    )
    now = services.now_iso()
    record = GameRecord(
        state,
        finished.visibility,
        secrets.token_urlsafe(6),
        created_at=now,
        updated_at=now,
        recent_requests=(games.new_request_id(),),
        rematch_of=finished.game_id,
    )
    record.due_at = due_index.at_creation(state, finished.visibility, services.now_epoch())
    try:
        services.games.create_game(
            record, memberships=inbox_entries.seated_entries(record, [player.player_id])
        )
    except (VersionConflict, StoreUnavailable):
        # Another player's call created it first (or ours landed and its answer was lost): read it.
        landed = services.games.load_game(lobby_id)
        if landed is None:
            raise
        return landed
    count("RematchesOpened")
    logger.info("rematch opened", extra={"game_id": lobby_id, "rematch_of": finished.game_id})
    return record
