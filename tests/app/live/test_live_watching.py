"""Frames: watching a game one may read (as GET /games/{id} decides), unwatching, pings, and an error
frame for anything else."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import pytest

from app.core.records import GameStamp, Visibility
from app.live.frames import MAX_FRAME_BYTES
from app.live.watching import MOST_WATCHES_PER_CONNECTION, on_frame
from tests.fakes.live import MemoryLiveStore

T0 = 1_780_000_000
PRIVATE, PUBLIC = "g_00000000000000a1", "g_00000000000000b2"


@dataclass
class Stamps:
    stamps: dict[str, GameStamp]

    def game_stamp(self, game_id: str) -> GameStamp | None:
        return self.stamps.get(game_id)


@dataclass
class Ports:
    live: MemoryLiveStore = field(default_factory=MemoryLiveStore)
    games: Stamps = field(
        default_factory=lambda: Stamps(
            {
                PRIVATE: GameStamp(7, Visibility.PRIVATE, frozenset({"p_ada", "p_bob"})),
                PUBLIC: GameStamp(3, Visibility.PUBLIC, frozenset({"p_bob"})),
            }
        )
    )


@pytest.fixture
def ports() -> Ports:
    built = Ports()
    built.live.add_connection("c_ada", "p_ada", now=T0, expires_at=T0 + 7200, most=10)
    built.live.add_connection("c_eve", "p_eve", now=T0, expires_at=T0 + 7200, most=10)
    return built


def send(ports: Ports, connection: str, frame: object) -> dict[str, object]:
    raw = frame if isinstance(frame, str) else json.dumps(frame)
    return on_frame(ports, connection, raw, now=T0)  # type: ignore[arg-type]


def test_a_member_watches_a_private_game_and_is_told_its_version(ports: Ports) -> None:
    assert send(ports, "c_ada", {"action": "watch", "game_id": PRIVATE}) == {
        "type": "watching",
        "game_id": PRIVATE,
        "version": 7,
    }
    assert sorted(ports.live.watchers_with_players(PRIVATE, now=T0)) == ["c_ada"]
    assert send(ports, "c_ada", {"action": "unwatch", "game_id": PRIVATE}) == {
        "type": "unwatched",
        "game_id": PRIVATE,
    }
    assert sorted(ports.live.watchers_with_players(PRIVATE, now=T0)) == []


def test_a_stranger_watches_a_public_game_but_not_a_private_one(ports: Ports) -> None:
    assert send(ports, "c_eve", {"action": "watch", "game_id": PUBLIC})["type"] == "watching"
    refused = send(ports, "c_eve", {"action": "watch", "game_id": PRIVATE})
    assert refused == {
        "type": "error",
        "code": "not_a_member",
        "message": "this game is private",
        "game_id": PRIVATE,
    }
    assert sorted(ports.live.watchers_with_players(PRIVATE, now=T0)) == []


def test_an_unknown_game_is_not_found_as_get_would_say(ports: Ports) -> None:
    for game_id in ("g_00000000000000ff", "../etc", 7):
        answer = send(ports, "c_ada", {"action": "watch", "game_id": game_id})
        assert answer["type"] == "error"
        assert answer["code"] == "game_not_found"


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("not json", "frame_invalid"),
        ("[1, 2]", "frame_invalid"),
        ('{"action": "subscribe"}', "action_unknown"),
        ("{}", "action_unknown"),
        (json.dumps({"action": "watch", "game_id": "g_" + "0" * MAX_FRAME_BYTES}), "frame_too_large"),
    ],
)
def test_a_bad_frame_is_answered_with_an_error_frame(ports: Ports, raw: str, code: str) -> None:
    answer = send(ports, "c_ada", raw)
    assert answer["type"] == "error"
    assert answer["code"] == code
    assert isinstance(answer["message"], str)
    assert answer["message"]


def test_a_ping_is_answered(ports: Ports) -> None:
    assert send(ports, "c_ada", {"action": "ping"}) == {"type": "pong"}


def test_a_connection_watches_a_bounded_number_of_games(ports: Ports) -> None:
    games = [f"g_{n:016x}" for n in range(MOST_WATCHES_PER_CONNECTION + 1)]
    ports.games.stamps.update({g: GameStamp(1, Visibility.PUBLIC, frozenset()) for g in games})
    for game_id in games[:-1]:
        assert send(ports, "c_ada", {"action": "watch", "game_id": game_id})["type"] == "watching"
    assert send(ports, "c_ada", {"action": "watch", "game_id": games[-1]})["code"] == "too_many_watches"


def test_a_forgotten_connection_is_told_to_reconnect(ports: Ports) -> None:
    ports.live.forget("c_ada")
    assert send(ports, "c_ada", {"action": "watch", "game_id": PRIVATE})["code"] == "connection_unknown"
