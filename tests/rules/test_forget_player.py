"""forget_player: a deleted account's seat keeps its place in the game under another name."""

from __future__ import annotations

import pytest

from dixit.engine import DELETED_PLAYER_NAME, forget_player
from dixit.errors import IllegalMoveError
from dixit.state import STOPPED_AFTER, GameState, Phase
from dixit.views import view_for

from .helpers import bot_game, play_round, play_to, seated_game


def _finished() -> GameState:
    return bot_game(seated_game(4, seed=3), bot_seed=3)[-1]


def test_the_seat_is_renamed_and_departs_and_nothing_else_changes() -> None:
    state = play_to(Phase.VOTING)
    gone = state.players[1].player_id
    forgotten = forget_player(state, gone)
    seat = forgotten.player(gone)
    assert seat is not None
    assert seat.name == DELETED_PLAYER_NAME
    assert forgotten.version == state.version + 1
    # It departs (dixit.departures): never answering again, moved on at every deadline.
    assert forgotten.departed == [gone]
    assert not seat.answering
    # Everything but the name, the seat's departure and the version is as it was.
    before, after = state.to_dict(), forgotten.to_dict()
    before["players"][1][1] = DELETED_PLAYER_NAME
    before["players"][1][3] = STOPPED_AFTER
    before["departed"] = [1]
    before["version"] = after["version"]
    assert before == after


def test_the_input_is_left_alone() -> None:
    state = play_to(Phase.SUBMITTING)
    name = state.players[2].name
    forget_player(state, state.players[2].player_id)
    assert state.players[2].name == name


def test_a_finished_game_keeps_its_scores_winners_and_last_round() -> None:
    state = _finished()
    assert state.phase is Phase.FINISHED
    gone = state.winners[0]
    forgotten = forget_player(state, gone)
    assert forgotten.winners == state.winners
    assert [p.score for p in forgotten.players] == [p.score for p in state.players]
    assert forgotten.last_round == state.last_round
    names = {p.player_id: p.name for p in view_for(forgotten, None).players}
    assert names[gone] == DELETED_PLAYER_NAME


def test_the_game_plays_on_around_the_seat() -> None:
    state = play_to(Phase.STORYTELLING)
    forgotten = forget_player(state, state.players[3].player_id)
    after = play_round(forgotten)
    assert after.round is not None
    assert after.round.number == 2


def test_only_a_member_can_be_forgotten() -> None:
    with pytest.raises(IllegalMoveError) as refused:
        forget_player(play_to(Phase.STORYTELLING), "stranger")
    assert refused.value.code == "not_a_player"


def test_the_json_round_trips() -> None:
    forgotten = forget_player(_finished(), "p1")
    assert GameState.from_json(forgotten.to_json()).to_dict() == forgotten.to_dict()
