"""Seated games over the in-memory doubles, for the games use-case tests."""

from __future__ import annotations

from app.core.records import GameRecord, PlayerRecord, Visibility
from app.games import play as games
from app.players import accounts as players
from app.services import Services
from dixit.bots import RandomBot
from dixit.moves import Join, Start
from dixit.state import Phase
from dixit.views import view_for


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


def finished(services: Services) -> tuple[str, list[PlayerRecord]]:
    """A game of three played to its end by bots (a target of one point: the first scored round ends it)."""
    record, accounts = started(services, 3, target=1)
    bots = {a.player_id: RandomBot(a.player_id, n) for n, a in enumerate(accounts)}
    by_id = {a.player_id: a for a in accounts}
    for _ in range(50):
        state = games.load_game(services, record.game_id).state
        if state.phase is Phase.FINISHED:
            break
        pid = state.awaited()[0]
        move = bots[pid].choose(view_for(state, pid))
        assert move is not None
        games.play(services, by_id[pid], record.game_id, move)
    assert games.load_game(services, record.game_id).state.phase is Phase.FINISHED
    return record.game_id, accounts
