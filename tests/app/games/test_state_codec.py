"""The stored game state: compressed so that every move of a five-player game writes one write unit."""

from __future__ import annotations

import base64
import secrets
from typing import Any

import pytest

from app.aws.dynamodb.items import game_from_item, game_item
from app.core.records import GameRecord, Visibility
from app.games import state_codec
from app.games.play import RECENT_REQUESTS, new_request_id
from dixit.bots import RandomBot, next_mover
from dixit.engine import apply, new_game
from dixit.moves import Join, Start
from dixit.settings import Settings
from dixit.state import GameState, Phase
from dixit.views import view_for

STAMP = "2026-12-01T15:00:00+00:00"


def item_size(item: dict[str, Any]) -> int:
    """An item's size as DynamoDB bills it: names plus values (numbers by their digits, roughly)."""
    size = 0
    for name, value in item.items():
        ((kind, raw),) = value.items()
        size += len(name.encode())
        if kind == "S":
            size += len(raw.encode())
        elif kind == "B":
            size += len(raw)
        elif kind == "N":
            size += len(raw.lstrip("-").replace(".", "")) // 2 + 2
        elif kind == "SS":
            size += sum(len(entry.encode()) for entry in raw)
        else:
            raise AssertionError(f"unsized attribute type {kind}")
    return size


def five_player_game() -> list[GameState]:
    """Every state a five-player game passes through, lobby to finish, played by seeded bots."""
    ids = [f"p_{secrets.token_hex(8)}" for _ in range(5)]
    state = new_game(
        f"g_{secrets.token_hex(8)}", host_id=ids[0], host_name="Player 1", settings=Settings(), seed=7
    )
    states = [state]
    for number, player_id in enumerate(ids[1:], start=2):
        states.append(state := apply(state, Join(player_id, f"Player {number}"), now=1_000).state)
    states.append(state := apply(state, Start(ids[0]), now=1_000).state)
    bots = {pid: RandomBot(pid, seat) for seat, pid in enumerate(ids)}
    now = 1_000
    while state.phase is not Phase.FINISHED:
        mover = next_mover(state)
        assert mover is not None
        move = bots[mover].choose(view_for(state, mover))
        assert move is not None
        now += 3_600
        states.append(state := apply(state, move, now=now).state)
    return states


def record(state: GameState) -> GameRecord:
    return GameRecord(
        state=state,
        visibility=Visibility.PUBLIC,
        invite_code=secrets.token_urlsafe(12),
        created_at=STAMP,
        updated_at=STAMP,
        due_at=1_800_000_000,
        recent_requests=tuple(new_request_id() for _ in range(RECENT_REQUESTS)),
    )


def test_every_state_of_a_five_player_game_fits_one_write_unit_with_a_full_request_memory() -> None:
    sizes = [item_size(game_item(record(state))) for state in five_player_game()]
    assert max(sizes) <= 1024, max(sizes)
    # Uncompressed, the same game would bill two units: the saving is the codec's, not the game's.
    assert max(len(state.to_json().encode()) for state in five_player_game()) > 700


@pytest.mark.parametrize("written_here", [False, True], ids=["decoded", "remembered"])
def test_a_stored_item_reads_back_as_the_same_state(written_here: bool) -> None:
    for state in five_player_game()[::7]:
        item = game_item(record(state))
        if not written_here:
            # Another function wrote it: the read decodes the bytes.
            state_codec.remembered.forget()
        assert game_from_item(item).state == state


@pytest.mark.parametrize("form", ["bytes", "base64 text of a stream event", "json of an older item"])
def test_the_state_reads_in_every_form_a_reader_gets_it(form: str) -> None:
    state = five_player_game()[-1]
    packed = state_codec.pack(state)
    state_codec.remembered.forget()
    value: bytes | str = {
        "bytes": packed,
        "base64 text of a stream event": base64.b64encode(packed).decode(),
        "json of an older item": state.to_json(),
    }[form]
    assert state_codec.unpack(value) == state
    assert state_codec.stored({"state": value}) == state


def test_an_item_without_a_state_has_none_and_a_corrupt_one_is_refused() -> None:
    assert state_codec.stored({"version": 3}) is None
    assert state_codec.stored(None) is None
    with pytest.raises(state_codec.UnreadableState):
        state_codec.unpack(b"not zlib")
    with pytest.raises(state_codec.UnreadableState):
        state_codec.unpack("%%% not base64")
