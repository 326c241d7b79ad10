"""Rematch: every call for one finished game answers the same lobby, with the caller seated."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.core.errors import Conflict, Forbidden
from app.core.records import Visibility
from app.games import play as games
from app.games import quotas
from app.games.rematch import rematch, rematch_lobby
from app.games.rematch_ids import rematch_id
from app.players import accounts as players
from app.services import Services
from dixit.state import Phase

from .helpers import finished, started


def test_two_rematch_calls_answer_one_lobby_with_both_callers_seated(services: Services) -> None:
    game_id, (first, second, _third) = finished(services)
    one = rematch(services, first, game_id).record
    two = rematch(services, second, game_id).record
    again = rematch(services, first, game_id).record
    assert one is not None
    assert two is not None
    assert again is not None
    assert one.game_id == two.game_id == again.game_id == rematch_id(game_id)
    lobby = games.load_game(services, one.game_id)
    assert lobby.state.phase is Phase.LOBBY
    assert lobby.state.player_ids == [first.player_id, second.player_id]
    assert lobby.state.host_id == first.player_id
    old = games.load_game(services, game_id)
    assert lobby.state.settings == old.state.settings
    assert lobby.visibility is old.visibility


@pytest.mark.parametrize("ask", [rematch, rematch_lobby])
def test_only_the_players_of_a_finished_game_may_ask_for_its_rematch(services: Services, ask: Any) -> None:
    game_id, _ = finished(services)
    stranger = players.register(services, "Stranger")[0]
    with pytest.raises(Forbidden):
        ask(services, stranger, game_id)
    record, accounts = started(services, 3)
    with pytest.raises(Conflict) as error:
        ask(services, accounts[0], record.game_id)
    assert error.value.code == "game_not_finished"


def test_the_rematch_is_told_as_not_opened_then_as_its_lobby(services: Services) -> None:
    game_id, (first, second, _) = finished(services)
    assert rematch_lobby(services, second, game_id) == (rematch_id(game_id), None)
    rematch(services, first, game_id)
    lobby_id, lobby = rematch_lobby(services, second, game_id)
    assert lobby_id == rematch_id(game_id)
    assert lobby is not None
    assert (lobby.game_id, lobby.state.host_id, lobby.state.player_ids) == (
        lobby_id,
        first.player_id,
        [first.player_id],
    )
    # Reading it seats nobody.
    assert games.load_game(services, lobby_id).state.player_ids == [first.player_id]


def test_a_rematch_lost_to_a_concurrent_create_joins_the_lobby_that_won(services: Services) -> None:
    game_id, (first, second, _) = finished(services)
    rematch(services, first, game_id)
    # The second caller read no lobby, then lost the create: the refused create finds the one that won.
    real = services.games.load_game
    calls = {"n": 0}

    def stale_first_read(gid: str):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        return None if gid == rematch_id(game_id) and calls["n"] == 2 else real(gid)

    class Stale:
        def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
            return stale_first_read if name == "load_game" else getattr(services.games, name)

    played = rematch(replace(services, games=Stale()), second, game_id)  # type: ignore[arg-type]
    assert played.record is not None
    assert played.record.game_id == rematch_id(game_id)
    lobby = games.load_game(services, rematch_id(game_id))
    assert lobby.state.player_ids == [first.player_id, second.player_id]


def test_opening_a_rematch_is_held_to_a_creates_quotas(services: Services) -> None:
    """#37: a rematch skipped every hosting quota; opening one is a create, joining one a join."""
    game_id, (first, second, _) = finished(services)
    for _ in range(quotas.MAX_LOBBIES):
        games.create_game(
            services, first, rules="classic", decks=None, max_players=None, target_score=None,
            visibility=Visibility.PRIVATE,
        )  # fmt: skip
    with pytest.raises(quotas.QuotaExceeded):
        games.create_game(
            services, first, rules="classic", decks=None, max_players=None, target_score=None,
            visibility=Visibility.PRIVATE,
        )  # fmt: skip
    with pytest.raises(quotas.QuotaExceeded):
        rematch(services, first, game_id)
    assert services.games.load_game(rematch_id(game_id)) is None
    lobby = rematch(services, second, game_id).record
    assert lobby is not None
    assert lobby.state.host_id == second.player_id


def test_joining_a_rematch_is_held_to_a_joins_quota(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, (first, second, _) = finished(services)
    rematch(services, first, game_id)
    monkeypatch.setattr(quotas, "MAX_UNFINISHED_GAMES", 0)
    with pytest.raises(quotas.QuotaExceeded):
        rematch(services, second, game_id)
