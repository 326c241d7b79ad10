"""Seated games over the in-memory doubles, for the games use-case tests."""

from __future__ import annotations

from app.core.records import GameRecord, PlayerRecord, Visibility
from app.games import play as games
from app.players import accounts as players
from app.services import Services
from dixit.moves import Join, Start


def started(
    services: Services, seats: int = 4, *, policy: str = "autoplay", hours: int = 4, target: int = 30
) -> tuple[GameRecord, list[PlayerRecord]]:
    """A private game of `seats` players, started, and its players in seat order."""
    accounts = [players.register(services, f"Player {n}")[0] for n in range(seats)]
    host, *guests = accounts
    record = games.create_game(
        services, host, rules="classic", decks=None, max_players=None, target_score=target,
        visibility=Visibility.PRIVATE, move_timeout_hours=hours, timeout_policy=policy,
    ).record  # fmt: skip
    assert record is not None
    for guest in guests:
        join = Join(guest.player_id, guest.name)
        games.play(services, guest, record.game_id, join, invite_code=record.invite_code)
    games.play(services, host, record.game_id, Start(host.player_id))
    return games.load_game(services, record.game_id), accounts
