"""local_stack.live: the template's WebSocket API served as API Gateway serves it, in front of a
recording handler: the events it builds ($connect with the query string, MESSAGE with the body,
$disconnect), a refused handshake, a frame's answer sent back, and the management API (PostToConnection,
410 for a closed connection, web pages refused)."""

from __future__ import annotations

import json
import socket
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


def handshake(
    server: LiveServer, host: str | None, query: str = "ticket=good"
) -> tuple[int, dict[str, str], bytes]:
    """A raw WebSocket opening with this ``Host`` (None: none); the answer's status, headers and body."""
    lines = [f"GET /?{query} HTTP/1.1", *([f"Host: {host}"] if host is not None else [])]
    lines += [
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
    ]
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as connection:
        connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        received = b""
        while b"\r\n\r\n" not in received and (chunk := connection.recv(65536)):
            received += chunk
        head, _, body = received.partition(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        headers = {name.lower(): value.strip() for name, _, value in (h.partition(":") for h in header_lines)}
        while len(body) < int(headers.get("content-length", "0")) and (chunk := connection.recv(65536)):
            body += chunk
    return int(status_line.split()[1]), headers, body


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1.evil.example", "", None])
def test_a_handshake_under_a_foreign_host_is_refused_before_the_function_sees_it(
    served: tuple[LiveServer, Recorder], host: str | None
) -> None:
    server, recorder = served
    status, headers, body = handshake(server, None if host is None else host.format(port=server.port))
    assert status == 403
    assert headers["content-type"] == "application/problem+json"
    assert json.loads(body)["code"] == "host_refused"
    assert recorder.routes() == []


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "[::1]:{port}", "localhost"])
def test_a_handshake_under_a_loopback_host_is_served(served: tuple[LiveServer, Recorder], host: str) -> None:
    server, recorder = served
    assert handshake(server, host.format(port=server.port))[0] == 101
    assert recorder.routes()[0] == "$connect"


def test_a_refusal_keeps_the_headers_and_json_body_the_function_gave() -> None:
    template = load_template()
    spec = functions(template)["LiveFunction"]

    def answer(event: dict[str, Any], context: Any) -> dict[str, Any]:
        if event["requestContext"]["routeKey"] != "$connect":
            return {"statusCode": 200}
        body = '{"code": "busy", "status": 503}'
        return {
            "statusCode": 503,
            "headers": {"Retry-After": "7", "Content-Type": "application/json"},
            "body": body,
        }

    server = LiveServer(spec, lambda: answer, host="127.0.0.1", port=0).start()
    try:
        status, headers, body = handshake(server, f"127.0.0.1:{server.port}")
    finally:
        server.stop()
    assert (status, headers["retry-after"], headers["content-type"]) == (503, "7", "application/json")
    assert json.loads(body) == {"code": "busy", "status": 503}
