"""The lobby: creating, joining, leaving and starting a game."""

from __future__ import annotations

import pytest

from dixit.engine import new_game
from dixit.errors import IllegalMoveError
from dixit.moves import Join, Leave, Start
from dixit.settings import Settings
from dixit.state import Phase

from .helpers import HOST, act, apply, ids, lobby


def test_the_host_creates_the_game_seated_first_in_the_lobby() -> None:
    state = new_game("g1", host_id="h", host_name="  Hanna  ", settings=Settings.build(), seed=5)
    assert state.phase is Phase.LOBBY
    assert state.host_id == "h"
    assert [(p.player_id, p.name, p.score) for p in state.players] == [("h", "Hanna", 0)]
    assert state.hands == {}
    assert state.pile == []
    assert state.round is None


def test_players_take_seats_in_the_order_they_join() -> None:
    assert lobby(5).player_ids == ["p0", "p1", "p2", "p3", "p4"]


def test_a_player_cannot_join_twice() -> None:
    with pytest.raises(IllegalMoveError) as error:
        apply(lobby(3), Join("p1", "Again"))
    assert error.value.code == "already_joined"


@pytest.mark.parametrize(("rules", "seats"), [("classic", 6), ("odyssey", 12)])
def test_a_full_table_turns_the_next_player_away(rules: str, seats: int) -> None:
    state = lobby(seats, rules)
    with pytest.raises(IllegalMoveError) as error:
        apply(state, Join("late", "Late"))
    assert error.value.code == "game_full"


def test_a_table_with_fewer_seats_fills_at_its_own_limit() -> None:
    state = new_game("g", host_id="h", host_name="H", settings=Settings.build(max_players=3), seed=1)
    state = act(act(state, Join("a", "A")), Join("b", "B"))
    with pytest.raises(IllegalMoveError) as error:
        apply(state, Join("c", "C"))
    assert error.value.code == "game_full"


def test_leaving_the_lobby_frees_the_seat_and_keeps_everyone_elses_order() -> None:
    state = act(lobby(4), Leave("p2"))
    assert state.player_ids == ["p0", "p1", "p3"]
    assert state.host_id == HOST
    assert act(state, Join("p4", "Four")).player_ids == ["p0", "p1", "p3", "p4"]


def test_a_host_who_leaves_hands_the_game_to_the_next_seat() -> None:
    state = act(lobby(4), Leave(HOST))
    assert state.host_id == "p1"
    assert state.player_ids == ["p1", "p2", "p3"]
    state = act(state, Leave("p1"))
    assert state.host_id == "p2"
    assert state.phase is Phase.LOBBY


def test_a_lobby_everyone_leaves_closes_without_winners() -> None:
    state = lobby(2)
    state = act(act(state, Leave("p1")), Leave(HOST))
    assert state.players == []
    assert state.phase is Phase.FINISHED
    assert state.winners == []


def test_only_a_seated_player_can_leave() -> None:
    with pytest.raises(IllegalMoveError) as error:
        apply(lobby(3), Leave("stranger"))
    assert error.value.code == "not_a_player"


def test_the_host_starts_the_game_with_three_players() -> None:
    state = act(lobby(3), Start(HOST))
    assert state.phase is Phase.STORYTELLING
    assert state.round is not None
    assert state.round.number == 1


@pytest.mark.parametrize("seated", [1, 2])
def test_a_game_cannot_start_with_fewer_than_three_players(seated: int) -> None:
    with pytest.raises(IllegalMoveError) as error:
        apply(lobby(seated), Start(HOST))
    assert error.value.code == "not_enough_players"


def test_only_the_host_can_start_the_game() -> None:
    with pytest.raises(IllegalMoveError) as error:
        apply(lobby(4), Start("p1"))
    assert error.value.code == "not_host"


def test_a_new_host_can_start_after_the_old_one_left() -> None:
    state = act(act(lobby(4), Leave(HOST)), Start("p1"))
    assert state.phase is Phase.STORYTELLING
    assert sorted(state.hands) == ["p1", "p2", "p3"]


def test_a_stranger_cannot_start_the_game() -> None:
    with pytest.raises(IllegalMoveError) as error:
        apply(lobby(4), Start("stranger"))
    assert error.value.code == "not_a_player"


@pytest.mark.parametrize("move", [Join("late", "Late"), Leave("p1"), Start(HOST)])
def test_the_lobby_closes_once_the_game_has_started(move: Join | Leave | Start) -> None:
    state = act(lobby(3), Start(HOST))
    with pytest.raises(IllegalMoveError) as error:
        apply(state, move)
    assert error.value.code == "game_started"
    assert state.player_ids == ids(3)
