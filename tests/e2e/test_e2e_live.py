"""End to end: the live channel on `python -m local_stack serve`, two players at one table each with a
socket watching the game, polling off: a move by one reaches the other as `game.changed` within a second
of the move's HTTP answer; closing one socket leaves the other working; a replayed ticket is refused and
a stranger cannot watch a private game; a reaction set or taken back reaches the watcher as
`reactions.changed`."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from ..api.helpers import give_clue, view
from ..local_stack.test_local_serve import Served, start_serve, stop
from .test_e2e_http import HttpClient

# The move's answer to the watcher's frame: the stream (polled every 0.25 s), the live queue, the post.
WITHIN_SECONDS = 1.0


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    running = start_serve(tmp_path_factory.mktemp("e2e-live"))
    try:
        yield running
    finally:
        assert stop(running.process) == 0, running.logs()


def ticket(client: HttpClient) -> dict[str, Any]:
    reply = client.post("/live/tickets")
    assert reply.status == 200, reply.raw
    assert reply.headers.get("Cache-Control") == "no-store"
    body: dict[str, Any] = reply.body
    return body


def open_socket(client: HttpClient) -> ClientConnection:
    issued = ticket(client)
    assert issued["url"].startswith("ws://127.0.0.1:")
    return connect(f"{issued['url']}?ticket={issued['ticket']}", open_timeout=5)


def frame(socket: ClientConnection, seconds: float = 5.0) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(socket.recv(timeout=seconds))
    return message


def watch(socket: ClientConnection, game_id: str) -> dict[str, Any]:
    socket.send(json.dumps({"action": "watch", "game_id": game_id}))
    while True:  # signals of earlier changes may come first
        answer = frame(socket)
        if answer["type"] in ("watching", "error"):
            return answer


def drain(socket: ClientConnection, quiet_seconds: float = 1.5) -> None:
    """Read what earlier changes still owe this socket, until it stays quiet."""
    while True:
        try:
            socket.recv(timeout=quiet_seconds)
        except TimeoutError:
            return


def game_changed_after(socket: ClientConnection, game_id: str, version: int, since: float) -> float:
    """Seconds from `since` to this socket's `game.changed` of `game_id` at `version`."""
    while True:
        message = frame(socket, seconds=10)
        if message == {"type": "game.changed", "game_id": game_id, "version": version}:
            return time.monotonic() - since


def test_two_players_see_each_others_moves_live(stack: Served) -> None:
    ada, bob, cy, stranger = (
        HttpClient(name, base_url=stack.api_url).register() for name in ("Ada", "Bob", "Cy", "Stranger")
    )
    created = ada.post("/games", {"visibility": "private"})
    game_id, invite = created.body["game_id"], created.body["invite_code"]
    for guest in (bob, cy):
        assert guest.post(f"/games/{game_id}/join", {"invite_code": invite}).status == 200

    with open_socket(ada) as ada_socket, open_socket(bob) as bob_socket:
        for socket in (ada_socket, bob_socket):
            assert watch(socket, game_id)["type"] == "watching"
            drain(socket)

        # Ada starts the game: Bob hears of it within a second of Ada's answer.
        started = ada.post(f"/games/{game_id}/start")
        answered = time.monotonic()
        assert started.status == 200, started.raw
        version = started.body["version"]
        took = game_changed_after(bob_socket, game_id, version, answered)
        print(f"game.changed reached the other player {took:.3f} s after the move's answer")
        assert took < WITHIN_SECONDS
        # ...and Ada's own socket too (her other tabs).
        assert game_changed_after(ada_socket, game_id, version, answered) < WITHIN_SECONDS + 1

        # Ada closes her socket: Bob's keeps working.
        ada_socket.close()
        drain(bob_socket)
        give_clue([ada, bob, cy], game_id)
        answered = time.monotonic()
        clued = view(cy, game_id)["version"]
        assert game_changed_after(bob_socket, game_id, clued, answered) < WITHIN_SECONDS

    # A stranger may open a socket, but not watch a private game (what GET /games/{id} would say).
    with open_socket(stranger) as socket:
        assert watch(socket, game_id) == {
            "type": "error",
            "code": "not_a_member",
            "message": "this game is private",
            "game_id": game_id,
        }
        assert stranger.get(f"/games/{game_id}").status == 403


def test_a_ticket_opens_one_socket_once(stack: Served) -> None:
    ada = HttpClient("Once", base_url=stack.api_url).register()
    issued = ticket(ada)
    url = f"{issued['url']}?ticket={issued['ticket']}"
    with connect(url, open_timeout=5) as socket:
        socket.send(json.dumps({"action": "ping"}))
        assert frame(socket) == {"type": "pong"}
        with pytest.raises(InvalidStatus) as replayed:
            connect(url, open_timeout=5)
        assert replayed.value.response.status_code == 401
    with pytest.raises(InvalidStatus) as without:
        connect(issued["url"], open_timeout=5)
    assert without.value.response.status_code == 401


def test_bad_frames_get_error_frames_and_the_socket_stays_open(stack: Served) -> None:
    ada = HttpClient("Frames", base_url=stack.api_url).register()
    with open_socket(ada) as socket:
        for sent, code in (
            ("not json", "frame_invalid"),
            ('{"action": "dance"}', "action_unknown"),
            ("x" * 2000, "frame_too_large"),
            ('{"action": "watch", "game_id": "g_0000000000000000"}', "game_not_found"),
        ):
            socket.send(sent)
            answer = frame(socket)
            assert (answer["type"], answer["code"]) == ("error", code), answer
        socket.send(json.dumps({"action": "ping"}))
        assert frame(socket) == {"type": "pong"}


def test_a_reaction_reaches_the_other_players_socket(stack: Served) -> None:
    ada, bob, cy = (HttpClient(name, base_url=stack.api_url).register() for name in ("Rae", "Sol", "Tam"))
    created = ada.post("/games", {"visibility": "private"})
    game_id, invite = created.body["game_id"], created.body["invite_code"]
    for guest in (bob, cy):
        assert guest.post(f"/games/{game_id}/join", {"invite_code": invite}).status == 200
    said = ada.post(f"/games/{game_id}/messages", {"text": "who brought the snacks?"})
    assert said.status == 201, said.raw
    target = said.body["message_id"]
    with open_socket(ada) as socket:
        assert watch(socket, game_id)["type"] == "watching"
        drain(socket)
        for change in (
            lambda: bob.put(f"/games/{game_id}/reactions/{target}", {"reaction": "laugh"}),
            lambda: bob.delete(f"/games/{game_id}/reactions/{target}"),
        ):
            assert change().status in (200, 204)
            # Whether it comes, not how fast (a busy machine's speed is the bench's business).
            while (message := frame(socket, seconds=10))["type"] != "reactions.changed":
                pass
            assert message == {"type": "reactions.changed", "game_id": game_id, "target": target}
