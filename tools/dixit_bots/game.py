"""Whole games played by bots through the API: a fresh table of bots, or bots filling a real game's seats."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from dixit_bots.api import ApiError, Player, Recorder, Transport
from dixit_bots.strategy import CLUES, choose

MOVE_LABELS = {"clue": "clue", "submissions": "submit", "votes": "vote"}
# A lost race (409) or a stale If-Match (412) is normal when humans share the table: read again and retry.
RETRYABLE = frozenset({409, 412})


@dataclass
class Table:
    game_id: str
    seats: dict[str, Player]  # the bots' players by player_id


def register(transport: Transport, count: int, prefix: str, record: Recorder | None = None) -> list[Player]:
    return [Player(transport, f"{prefix} {i}", record).register() for i in range(count)]


def new_table(players: Sequence[Player], settings: dict[str, Any]) -> Table:
    """The first player creates the game, the others join, the host deals."""
    host = players[0]
    game_id = host.expect("create", "POST", "/games", settings, ok=201)["game_id"]
    for guest in players[1:]:
        guest.expect("join", "POST", f"/games/{game_id}/join")
    host.expect("start", "POST", f"/games/{game_id}/start")
    return Table(game_id, {p.player_id: p for p in players})


def fill_seats(
    transport: Transport,
    game_id: str,
    *,
    invite_code: str | None = None,
    at_most: int | None = None,
    record: Recorder | None = None,
) -> Table:
    """Seat bots in every free seat of a game still in its lobby (or in `at_most` of them)."""
    scout = Player(transport, "Bot 0", record).register()
    seen = scout.expect("view", "GET", f"/games/{game_id}")
    free = seen["settings"]["max_players"] - len(seen["players"])
    wanted = free if at_most is None else min(free, at_most)
    body = {"invite_code": invite_code} if invite_code else None
    seats: dict[str, Player] = {}
    for i in range(wanted):
        player = scout if i == 0 else Player(transport, f"Bot {i}", record).register()
        reply = player.send("join", "POST", f"/games/{game_id}/join", body)
        if reply.status == 409 and isinstance(reply.body, dict) and reply.body.get("code") == "game_full":
            break
        if reply.status != 200:
            raise ApiError("join", reply)
        seats[player.player_id] = player
    return Table(game_id, seats)


def play(
    table: Table,
    rng: random.Random,
    *,
    poll_seconds: float = 0.0,
    max_moves: int = 10_000,
    on_move: Callable[[], None] | None = None,
    clues: tuple[str, ...] = CLUES,
) -> dict[str, Any]:
    """Play the bots' seats until the game is finished; returns the final view.

    Only seats waited on are read again (with If-None-Match), so an idle bot costs one 304 per poll.
    """
    watcher = next(iter(table.seats.values()))
    moves = 0
    while True:
        view = watcher.view(table.game_id)
        if view["phase"] == "finished":
            return view
        ours = [] if view["round"] is None else [p for p in view["round"]["waiting_for"] if p in table.seats]
        if not ours:
            if poll_seconds <= 0 and view["round"] is not None:
                raise RuntimeError(f"{table.game_id} waits on nobody this table seats")
            time.sleep(poll_seconds)
            continue
        for player_id in ours:
            if _move(table.seats[player_id], table.game_id, rng, clues):
                moves += 1
                if on_move is not None:
                    on_move()
        if moves > max_moves:
            raise RuntimeError(f"{table.game_id} did not end within {max_moves} moves")


def _move(player: Player, game_id: str, rng: random.Random, clues: tuple[str, ...]) -> bool:
    picked = choose(player.view(game_id), rng, clues)
    if picked is None:
        return False
    route, body = picked
    reply = player.send(MOVE_LABELS[route], "POST", f"/games/{game_id}/{route}", body)
    if reply.status in RETRYABLE:
        return False
    if reply.status != 200:
        raise ApiError(MOVE_LABELS[route], reply)
    player.remember(game_id, reply)
    return True
