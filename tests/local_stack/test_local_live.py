"""local_stack.live: the template's WebSocket API served as API Gateway serves it, in front of a
recording handler: the events it builds ($connect with the query string, MESSAGE with the body,
$disconnect), a refused handshake, a frame's answer sent back, and the management API (PostToConnection,
410 for a closed connection, web pages refused)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from local_stack.live import LIVE_PATH, LiveServer, websocket_function
from local_stack.template import FunctionSpec, functions, load_template


class Recorder:
    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    def __call__(self, event: dict[str, Any], context: Any) -> dict[str, Any]:
        with self.lock:
            self.events.append(event)
        route = event["requestContext"]["routeKey"]
        if route == "$connect":
            query = event.get("queryStringParameters") or {}
            return {"statusCode": 200 if query.get("ticket") == "good" else 401, "body": "ticket_invalid"}
        if route == "$default":
            return {"statusCode": 200, "body": json.dumps({"echo": event["body"]})}
        return {"statusCode": 200}

    def routes(self) -> list[str]:
        with self.lock:
            return [e["requestContext"]["routeKey"] for e in self.events]


@pytest.fixture
def served() -> Iterator[tuple[LiveServer, Recorder]]:
    template = load_template()
    function = websocket_function(template)
    assert function == "LiveFunction"
    spec: FunctionSpec = functions(template)[function]
    recorder = Recorder()
    server = LiveServer(spec, lambda: recorder, host="127.0.0.1", port=0).start()
    try:
        yield server, recorder
    finally:
        server.stop()


def wait_for(condition: Any) -> None:
    deadline = time.monotonic() + 5
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_a_socket_is_connected_messaged_posted_to_and_disconnected_as_api_gateway_does(
    served: tuple[LiveServer, Recorder],
) -> None:
    server, recorder = served
    assert server.url.startswith("ws://127.0.0.1:")
    with connect(f"{server.url}/?ticket=good&x=1", open_timeout=5) as socket:
        connected = recorder.events[0]
        assert connected["queryStringParameters"] == {"ticket": "good", "x": "1"}
        context = connected["requestContext"]
        assert (context["routeKey"], context["eventType"]) == ("$connect", "CONNECT")
        connection_id = context["connectionId"]
        socket.send('{"action":"ping"}')
        assert json.loads(socket.recv(timeout=5)) == {"echo": '{"action":"ping"}'}
        message = recorder.events[1]
        assert message["requestContext"]["eventType"] == "MESSAGE"
        assert message["requestContext"]["connectionId"] == connection_id
        # The management API, as the sender's apigatewaymanagementapi client calls it.
        answer = server.handle("POST", f"{LIVE_PATH}/@connections/{connection_id}", "", [], b'{"type":"x"}')
        assert answer.status == 200
        assert socket.recv(timeout=5) == '{"type":"x"}'
        refused = server.handle(
            "POST", f"{LIVE_PATH}/@connections/{connection_id}", "", [("Origin", "http://evil")], b"{}"
        )
        assert refused.status == 403
    wait_for(lambda: "$disconnect" in recorder.routes())
    closed = recorder.events[-1]["requestContext"]
    assert (closed["eventType"], closed["connectionId"]) == ("DISCONNECT", connection_id)
    gone = server.handle("POST", f"{LIVE_PATH}/%40connections/{connection_id}", "", [], b"{}")
    assert gone.status == 410
    assert ("x-amzn-ErrorType", "GoneException") in gone.headers


def test_a_handshake_the_function_refuses_is_refused_with_its_status(
    served: tuple[LiveServer, Recorder],
) -> None:
    server, recorder = served
    with pytest.raises(InvalidStatus) as refused:
        connect(f"{server.url}/?ticket=bad", open_timeout=5)
    assert refused.value.response.status_code == 401
    assert recorder.routes() == ["$connect"]  # never connected, so never disconnected
