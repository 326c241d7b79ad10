"""How much of the game service one player may hold at once, and a lobby list no host can crowd.

The numbers are in docs/api.md (Quotas and rates). Counts come from the player's own inbox entries,
which the move that seats a player writes in the same transaction: one query, bounded by the quota.

Every way to open a lobby (a create, a rematch that opens one) calls `check_can_host`; every way to
take a seat at a table (a join, a rematch's join, taking an offered seat) calls `check_can_sit`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from app.core import rates
from app.core.errors import Conflict
from app.core.records import GameRecord, PlayerRecord, Visibility
from app.games.ports import Inbox, Seating
from dixit.state import Phase

# Joining and leaving one lobby over and over tells its table each time (the host's feed, webhooks and
# live channel): a few changes of mind an hour are plenty for anyone, and bound what one player sends.
SEAT_CHANGES_PER_GAME_HOUR = rates.Rate(
    "seats-game-hour", 10, 3_600, "too_many_seat_changes", "you joined or left this game too often this hour"
)
# Lobbies a player may host at once: a few public ones (what the open list shows), more in all
# (private tables for friends).
MAX_PUBLIC_LOBBIES = 3
MAX_LOBBIES = 10
# Unfinished games (lobbies included) a player may sit at: creating and joining both count.
MAX_UNFINISHED_GAMES = 30
# The open list shows at most this many lobbies per host...
LOBBIES_PER_HOST_LISTED = 2
# ...picked from this many of the newest lobbies.
OPEN_GAMES_SCANNED = 100


class QuotaExceeded(Conflict):
    """More than a player may hold at once; it passes when they finish, leave or start a game."""

    def __init__(self, detail: str) -> None:
        super().__init__("quota_exceeded", detail)


def check_can_sit(services: Inbox, player: PlayerRecord) -> None:
    """Before a join or taking an offered seat: the player is at fewer than MAX_UNFINISHED_GAMES tables."""
    if len(services.inbox.active_memberships(player.player_id)) >= MAX_UNFINISHED_GAMES:
        raise QuotaExceeded(
            f"you are in {MAX_UNFINISHED_GAMES} unfinished games already; finish or leave one first"
        )


def check_can_host(services: Seating, player: PlayerRecord, visibility: Visibility) -> None:
    """Before opening a lobby (a create, a rematch): the player hosts fewer lobbies than the quotas allow."""
    memberships = services.inbox.active_memberships(player.player_id)
    if len(memberships) >= MAX_UNFINISHED_GAMES:
        raise QuotaExceeded(
            f"you are in {MAX_UNFINISHED_GAMES} unfinished games already; finish or leave one first"
        )
    # The entry says lobby until the stream rewrites it; the game itself says who hosts and whether it
    # has started. At most MAX_UNFINISHED_GAMES reads, on a create only.
    hosted = [
        record
        for m in memberships
        if m.phase is Phase.LOBBY
        and (record := services.games.load_game(m.game_id)) is not None
        and record.state.phase is Phase.LOBBY
        and record.state.host_id == player.player_id
    ]
    if len(hosted) >= MAX_LOBBIES:
        raise QuotaExceeded(f"you host {MAX_LOBBIES} lobbies already; start or leave one first")
    public = sum(1 for record in hosted if record.visibility is Visibility.PUBLIC)
    if visibility is Visibility.PUBLIC and public >= MAX_PUBLIC_LOBBIES:
        raise QuotaExceeded(
            f"you host {MAX_PUBLIC_LOBBIES} public lobbies already; start or leave one, or make this one "
            "private"
        )


def fair_lobbies(newest_first: Iterable[GameRecord], limit: int) -> list[GameRecord]:
    """At most LOBBIES_PER_HOST_LISTED lobbies per host, taken in rounds: every host's newest lobby
    first (newest host first), then every host's second. However many lobbies one host opens, the
    others' stay on the first page."""
    rounds: list[list[GameRecord]] = [[] for _ in range(LOBBIES_PER_HOST_LISTED)]
    shown: dict[str, int] = {}
    for record in newest_first:
        host = record.state.host_id
        seen = shown.get(host, 0)
        if seen < LOBBIES_PER_HOST_LISTED:
            rounds[seen].append(record)
            shown[host] = seen + 1
    return [record for listed in rounds for record in listed][:limit]


def claim_seat_change(services: rates.Counted, player: PlayerRecord, game_id: str) -> None:
    """Count a player's join or leave of one game (SEAT_CHANGES_PER_GAME_HOUR); RateLimited past it.

    The routes count it, not the move path: an account's erasure leaves its lobbies through the move
    path too, and no rate may stop that.
    """
    # Hashed like every counter key: the counter item names neither the player nor the game.
    key = hashlib.sha256(f"seats\x00{player.player_id}\x00{game_id}".encode()).hexdigest()
    rates.claim(services, SEAT_CHANGES_PER_GAME_HOUR, key)
