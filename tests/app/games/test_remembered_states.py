"""A warm function's memory of the states it wrote or read: same bytes, same state, never shared."""

from __future__ import annotations

import secrets

from hypothesis import given, settings
from hypothesis import strategies as st

from app.games import state_codec
from app.games.remembered_states import RememberedStates
from dixit.engine import apply, new_game
from dixit.moves import Join, Start
from dixit.settings import Settings
from dixit.state import GameState


def started_game(players: int = 4, seed: int = 1) -> GameState:
    state = new_game(
        f"g_{secrets.token_hex(4)}", host_id="p0", host_name="P0", settings=Settings(), seed=seed
    )
    for i in range(1, players):
        state = apply(state, Join(f"p{i}", f"P{i}"), now=0).state
    return apply(state, Start("p0"), now=0).state


def test_a_state_written_here_is_read_back_without_decoding_and_equal() -> None:
    state = started_game()
    stored = state_codec.pack(state)
    decoded = GameState.from_json(state.to_json())
    assert state_codec.remembered.recall(stored) == decoded == state
    assert state_codec.unpack(stored) == state


def test_every_reader_gets_its_own_copy() -> None:
    state = started_game()
    stored = state_codec.pack(state)
    first = state_codec.unpack(stored)
    first.hands["p1"].clear()
    first.players[0].score = 99
    first.draws += 5
    second = state_codec.unpack(stored)
    assert second == state
    assert second is not first
    # Nor does the writer's own state, changed after the write, change what was stored.
    state.hands["p2"].clear()
    assert state_codec.unpack(stored).hands["p2"]


def test_a_state_read_once_is_remembered_for_the_next_read() -> None:
    state = started_game()
    stored = state_codec.pack(state)
    state_codec.remembered.forget()
    assert state_codec.remembered.recall(stored) is None
    assert state_codec.unpack(stored) == state
    assert state_codec.remembered.recall(stored) == state


def test_other_bytes_are_never_answered_from_memory() -> None:
    state = started_game()
    stored = state_codec.pack(state)
    moved = started_game(players=5)
    other = state_codec.pack(moved)
    assert other != stored
    assert state_codec.unpack(other) == moved
    assert state_codec.unpack(stored) == state


@settings(max_examples=25, deadline=None)
@given(limit=st.integers(min_value=1, max_value=6), writes=st.integers(min_value=0, max_value=12))
def test_the_memory_is_bounded_and_forgets_the_oldest_first(limit: int, writes: int) -> None:
    memory = RememberedStates(limit)
    state = started_game()
    keys = [f"state {i}".encode() for i in range(writes)]
    for key in keys:
        memory.keep(key, state)
    assert len(memory) == min(limit, writes)
    kept = keys[-limit:] if writes else []
    for key in keys:
        assert (memory.recall(key) is not None) == (key in kept)
