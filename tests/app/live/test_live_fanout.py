"""The sender and the change flow: a change becomes one queued announcement, then `game.changed` to each
watcher and `inbox.changed` to each member's connections; a gone connection is forgotten and nobody
else is held up."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import pytest

from app.core.records import GameStamp, Visibility
from app.flows.game_change import GameChange, LiveNotQueued, announce_live
from app.live.fanout import tell
from app.live.ports import Posted
from app.live.signals import Announcement, announcement, reactions_announcement, talk_announcement
from dixit.state import GameState
from tests.fakes.live import MemoryLiveQueue, MemoryLiveStore, RecordingLiveSocket

T0 = 1_780_000_000
GAME = "g_00000000000000a1"


@dataclass
class Stamps:
    stamps: dict[str, GameStamp] = field(default_factory=dict)

    def game_stamp(self, game_id: str) -> GameStamp | None:
        return self.stamps.get(game_id)


@dataclass
class Ports:
    live: MemoryLiveStore = field(default_factory=MemoryLiveStore)
    live_socket: RecordingLiveSocket = field(default_factory=RecordingLiveSocket)
    games: Stamps = field(default_factory=Stamps)


def connected(ports: Ports, connection: str, player: str, *watching: str) -> None:
    ports.live.add_connection(connection, player, now=T0, expires_at=T0 + 7200, most=10)
    for game_id in watching:
        ports.live.add_watch(connection, player, game_id, expires_at=T0 + 7200, most=10)


def told(ports: Ports) -> list[tuple[str, dict[str, object]]]:
    return [(connection, json.loads(data)) for connection, data in ports.live_socket.posts]


def test_watchers_hear_the_game_and_members_hear_their_inbox() -> None:
    ports = Ports()
    connected(ports, "c_ada", "p_ada", GAME)
    connected(ports, "c_eve", "p_eve", GAME)  # a spectator of a public game
    connected(ports, "c_bob", "p_bob")  # on another screen: the inbox only
    connected(ports, "c_cy", "p_cy", "g_00000000000000ff")  # neither
    result = tell(ports, Announcement(GAME, 9, ("p_ada", "p_bob")), now=T0)
    game = {"type": "game.changed", "game_id": GAME, "version": 9}
    inbox = {"type": "inbox.changed", "game_id": GAME, "version": 9}
    assert sorted(told(ports), key=str) == sorted(
        [("c_ada", game), ("c_eve", game), ("c_bob", inbox)], key=str
    )
    # Ada's connection watches the game: game.changed alone tells it her inbox entry changed too.
    assert result.outcomes[Posted.SENT] == 3
    assert not result.failed


def test_a_gone_connection_is_forgotten_and_the_others_are_still_told() -> None:
    ports = Ports()
    connected(ports, "c_gone", "p_ada", GAME)
    connected(ports, "c_slow", "p_bob", GAME)
    connected(ports, "c_fine", "p_cy", GAME)
    ports.live_socket.answers = {"c_gone": Posted.GONE, "c_slow": Posted.FAILED}
    result = tell(ports, Announcement(GAME, 9, ("p_ada", "p_bob", "p_cy")), now=T0)
    assert ports.live.player_of("c_gone", now=T0) is None
    assert sorted(ports.live.watchers_with_players(GAME, now=T0)) == ["c_fine", "c_slow"]
    # Each was tried once; the failing one did not stop the one after it.
    assert sorted(c for c, _ in ports.live_socket.posts) == ["c_fine", "c_gone", "c_slow"]
    assert result.failed  # the queue retries: a repeated signal costs a client a 304


def test_a_gone_connection_is_tried_once_however_many_messages_it_was_owed() -> None:
    ports = Ports()
    connected(ports, "c_gone", "p_ada", GAME)
    connected(ports, "c_other_tab", "p_ada")
    ports.live_socket.answers = {"c_gone": Posted.GONE}
    ports.live.watch_expiry[(GAME, "c_gone")] = T0 + 7200
    tell(ports, Announcement(GAME, 9, ("p_ada",)), now=T0)
    assert [c for c, _ in ports.live_socket.posts] == ["c_gone", "c_other_tab"]


def test_the_messages_carry_no_secret() -> None:
    ports = Ports()
    connected(ports, "c_ada", "p_ada", GAME)
    tell(ports, Announcement(GAME, 9, ("p_ada",)), now=T0)
    for _, message in told(ports):
        assert set(message) == {"type", "game_id", "version"}


@dataclass
class ChangePorts:
    live_queue: MemoryLiveQueue = field(default_factory=MemoryLiveQueue)


@dataclass
class Seat:
    player_id: str


@dataclass
class State:
    """What an announcement reads of a game's state: its id, version and players."""

    game_id: str
    version: int
    players: list[Seat]


def state(game_id: str, version: int, players: list[str]) -> GameState:
    return State(game_id, version, [Seat(p) for p in players])  # type: ignore[return-value]


def test_a_change_is_announced_once_with_the_members_before_and_after() -> None:
    old, new = state(GAME, 4, ["p_ada", "p_bob"]), state(GAME, 5, ["p_ada", "p_cy"])
    assert announcement(old, new) == Announcement(GAME, 5, ("p_ada", "p_bob", "p_cy"))
    assert announcement(old, None) is None  # a deleted game: nothing to fetch
    ports = ChangePorts()
    announce_live(ports, GameChange(old, new))  # type: ignore[arg-type]
    (body,) = ports.live_queue.sent
    assert Announcement.from_json(body) == Announcement(GAME, 5, ("p_ada", "p_bob", "p_cy"))
    assert json.loads(body)["id"] == f"{GAME}:5:live"


def test_a_refused_announcement_fails_the_stream_record() -> None:
    ports = ChangePorts()
    ports.live_queue.refuse_all = True
    with pytest.raises(LiveNotQueued):
        announce_live(ports, GameChange(None, state(GAME, 1, ["p_ada"])))  # type: ignore[arg-type]


def test_without_a_live_queue_nothing_is_announced() -> None:
    ports = ChangePorts(MemoryLiveQueue(configured=False))
    announce_live(ports, GameChange(None, state(GAME, 1, ["p_ada"])))  # type: ignore[arg-type]
    assert ports.live_queue.sent == []


@pytest.mark.parametrize(
    ("queued", "frame"),
    [
        (talk_announcement(GAME, "m_1"), {"type": "messages.changed", "game_id": GAME, "message_id": "m_1"}),
        (
            reactions_announcement(GAME, "round-2"),
            {"type": "reactions.changed", "game_id": GAME, "target": "round-2"},
        ),
    ],
    ids=["message", "reaction"],
)
def test_table_talk_and_reactions_are_told_to_the_games_watchers_alone(
    queued: Announcement, frame: dict[str, object]
) -> None:
    ports = Ports()
    connected(ports, "c_ada", "p_ada", GAME)
    connected(ports, "c_bob", "p_bob")  # a member on another screen: their games list did not change
    result = tell(ports, Announcement.from_json(queued.to_json()), now=T0)
    assert told(ports) == [("c_ada", frame)]
    assert result.outcomes[Posted.SENT] == 1


def test_a_hidden_message_is_a_second_signal_not_a_duplicate_of_its_posting() -> None:
    posted, hidden = talk_announcement(GAME, "m_1"), talk_announcement(GAME, "m_1", hidden=True)
    assert posted.dedupe_id != hidden.dedupe_id
    # A message queued before talk had signals reads as a game's change.
    assert Announcement.from_json(json.dumps({"game_id": GAME, "version": 3, "members": []})).kind == "game"
    with pytest.raises(ValueError, match="no announcement kind"):
        Announcement.from_json(json.dumps({"game_id": GAME, "version": 3, "members": [], "kind": "x"}))


def test_a_watcher_who_left_a_private_game_hears_nothing_more_of_it() -> None:
    ports = Ports()
    ports.games.stamps[GAME] = GameStamp(10, Visibility.PRIVATE, frozenset({"p_ada"}))
    connected(ports, "c_ada", "p_ada", GAME)
    connected(ports, "c_left", "p_bob", GAME)  # watched while a member, then left
    tell(ports, Announcement(GAME, 10, ("p_ada",)), now=T0)
    tell(ports, talk_announcement(GAME, "m_1"), now=T0)
    assert [c for c, _ in ports.live_socket.posts] == ["c_ada", "c_ada"]
    # The same watcher of a public game (anyone may read it) is still told.
    ports.games.stamps[GAME] = GameStamp(11, Visibility.PUBLIC, frozenset({"p_ada"}))
    ports.live_socket.posts.clear()
    tell(ports, Announcement(GAME, 11, ("p_ada",)), now=T0)
    assert sorted(c for c, _ in ports.live_socket.posts) == ["c_ada", "c_left"]


def test_a_leaver_watching_the_private_game_hears_its_leave_as_its_inbox() -> None:
    ports = Ports()
    ports.games.stamps[GAME] = GameStamp(5, Visibility.PRIVATE, frozenset({"p_ada"}))
    connected(ports, "c_bob", "p_bob", GAME)
    tell(ports, Announcement(GAME, 5, ("p_ada", "p_bob")), now=T0)  # Bob's leave: a member before it
    assert told(ports) == [("c_bob", {"type": "inbox.changed", "game_id": GAME, "version": 5})]
