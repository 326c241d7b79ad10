"""The game state's JSON form: lossless, self-sufficient and small."""

from __future__ import annotations

import dataclasses
import json

import pytest

from dixit.bots import next_mover
from dixit.engine import apply, new_game
from dixit.moves import GiveClue, Join, Leave, Start
from dixit.settings import Settings
from dixit.state import GameState, Phase
from dixit.views import view_for

from .helpers import (
    HOST,
    act,
    bot_game,
    bot_steps,
    bots_for,
    everyone_votes_storyteller,
    play_round,
    seated_game,
)

HOT_STATE_LIMIT = 4096


@pytest.mark.parametrize(("rules", "players"), [("classic", 3), ("classic", 6), ("odyssey", 8)])
def test_the_state_round_trips_through_json_at_every_step_of_a_game(rules: str, players: int) -> None:
    for state in bot_game(seated_game(players, rules, seed=17), bot_seed=17):
        text = state.to_json()
        back = GameState.from_json(text)
        assert back == state
        assert back.to_json() == text
        assert GameState.from_dict(json.loads(text)) == state


def test_the_lobby_and_a_closed_lobby_round_trip_too() -> None:
    state = new_game(
        "g", host_id=HOST, host_name="Hôte ✨", settings=Settings.build("odyssey", ["base", "quest"]), seed=3
    )
    assert GameState.from_json(state.to_json()) == state
    closed = act(state, Leave(HOST))
    assert closed.phase is Phase.FINISHED
    assert GameState.from_json(closed.to_json()) == closed


def test_non_ascii_text_and_huge_seeds_survive_the_round_trip() -> None:
    state = new_game("g", host_id=HOST, host_name="Zoë 🦊", settings=Settings.build(), seed=2**64 + 7)
    state = act(act(state, Join("p1", "Łukasz")), Join("p2", "美咲"))
    state = act(state, Start(HOST))
    back = GameState.from_json(state.to_json())
    assert back == state
    assert back.seed == 2**64 + 7
    assert [p.name for p in back.players] == ["Zoë 🦊", "Łukasz", "美咲"]


def test_a_restored_state_plays_on_exactly_like_the_original() -> None:
    state = play_round(seated_game(5, seed=23, target_score=200), everyone_votes_storyteller)
    restored = GameState.from_json(state.to_json())
    for (before, move), (restored_before, restored_move) in zip(
        bot_steps(state, bot_seed=4), bot_steps(restored, bot_seed=4), strict=True
    ):
        assert move == restored_move
        assert apply(before, move).state.to_json() == apply(restored_before, restored_move).state.to_json()


def test_a_copy_shares_nothing_mutable_with_the_original() -> None:
    state = play_round(seated_game(4, seed=23, target_score=200), everyone_votes_storyteller)
    before = state.to_json()
    copy = state.copy()
    copy.pile.pop()
    copy.discard.append("base-999")
    copy.hands["p0"].clear()
    copy.players[0].score += 10
    assert copy.round is not None
    copy.round.submissions["p1"] = ["base-998"]
    assert state.to_json() == before


@pytest.mark.parametrize("bot_seed", range(5))
def test_a_six_player_base_deck_game_stays_within_four_kilobytes_throughout(bot_seed: int) -> None:
    # long but ASCII text: ids shaped like the app's (p_ + 16 hex), 40-character names, 200-character clues
    player_ids = [f"p_{bot_seed * 100 + seat:016x}" for seat in range(6)]
    state = new_game(
        "g_" + "f" * 16, host_id=player_ids[0], host_name="H" * 40, settings=Settings.build(), seed=2**63 - 1
    )
    for player_id in player_ids[1:]:
        state = act(state, Join(player_id, "N" * 40))
    state = act(state, Start(player_ids[0]))
    bots = bots_for(state, bot_seed)
    sizes = [len(state.to_json().encode())]
    while (mover := next_mover(state)) is not None:
        move = bots[mover].choose(view_for(state, mover))
        if isinstance(move, GiveClue):
            move = dataclasses.replace(move, clue="c" * 200)
        assert move is not None
        state = act(state, move)
        sizes.append(len(state.to_json().encode()))
    assert state.phase is Phase.FINISHED
    assert max(sizes) <= HOT_STATE_LIMIT, f"largest state: {max(sizes)} bytes"
