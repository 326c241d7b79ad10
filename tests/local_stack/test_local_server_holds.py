"""The local gateway's HTTP server holds against what a flaky or hostile client sends."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from local_stack import server as server_module
from local_stack.gateway import Gateway
from local_stack.hosts import host_allowed, served_names
from local_stack.server import GatewayServer
from local_stack.stack import check_port_free
from local_stack.static import StaticSite
from local_stack.template import api_cors_headers, api_routes, functions, load_template

TEMPLATE = load_template()
WAIT = 30.0  # a bound on waiting for an answer, never a claim about speed


def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return {"statusCode": 200, "headers": {"Content-Type": "application/json"}, "body": '{"api": true}'}


def start(static: StaticSite | None = None, port: int = 0) -> GatewayServer:
    gateway = Gateway(
        api_routes(TEMPLATE),
        lambda: handler,
        functions=functions(TEMPLATE),
        cors_headers=api_cors_headers(TEMPLATE),
        static=static,
    )
    return GatewayServer(gateway, "127.0.0.1", port).start()


@pytest.fixture
def server() -> Iterator[GatewayServer]:
    running = start()
    try:
        yield running
    finally:
        running.stop()


def raw_exchange(server: GatewayServer, data: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``data`` as is on a fresh connection; the status, headers and body of the answer."""
    with socket.create_connection((server.host, server.port), timeout=WAIT) as connection:
        connection.sendall(data)
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (h.partition(":") for h in header_lines)}
    return int(status_line.split()[1]), headers, body


def get(server: GatewayServer, path: str, host: str = "127.0.0.1") -> tuple[int, dict[str, str], bytes]:
    return raw_exchange(server, f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())


@pytest.mark.parametrize(
    ("method", "path"), [("TRACE", "/decks"), ("CONNECT", "/decks"), ("BREW", "/nowhere")]
)
def test_a_method_api_gateway_does_not_know_is_a_405_problem(
    server: GatewayServer, method: str, path: str
) -> None:
    status, headers, body = raw_exchange(
        server, f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    )
    assert status == 405
    assert headers["content-type"] == "application/problem+json"
    assert json.loads(body)["code"] == "method_not_allowed"
    assert "allow" in headers


@pytest.mark.parametrize("length", ["abc", "-5", "1e3", " "])
def test_a_garbage_content_length_is_a_400_and_the_server_goes_on(server: GatewayServer, length: str) -> None:
    status, headers, body = raw_exchange(
        server, f"POST /players HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {length}\r\n\r\n{{}}".encode()
    )
    assert (status, json.loads(body)["code"]) == (400, "bad_content_length")
    assert headers["content-type"] == "application/problem+json"
    assert get(server, "/decks")[0] == 200


def test_a_body_shorter_than_its_length_is_a_400_after_the_read_timeout_and_holds_no_one_up(
    server: GatewayServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server_module._RequestHandler, "timeout", 0.5)
    with socket.create_connection((server.host, server.port), timeout=WAIT) as stalled:
        stalled.sendall(b'POST /players HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{"name":')
        # While that body never arrives, other clients are served.
        assert get(server, "/decks")[0] == 200
        answer = b""
        while chunk := stalled.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.0 400") or answer.startswith(b"HTTP/1.1 400")
    assert b"short_body" in answer


def test_a_restart_on_the_same_port_works_at_once() -> None:
    first = start()
    port = first.port
    assert get(first, "/decks")[0] == 200  # leaves the server's side of the connection in TIME_WAIT
    first.stop()
    check_port_free("127.0.0.1", port)
    second = start(port=port)
    try:
        assert get(second, "/decks")[0] == 200
    finally:
        second.stop()


# -- the web client --------------------------------------------------------------------------------


@pytest.fixture
def site(tmp_path: Path) -> Iterator[GatewayServer]:
    web = tmp_path / "web"
    (web / "assets").mkdir(parents=True)
    (web / "index.html").write_text("<!doctype html><title>Dixit</title>")
    (web / "assets" / "app.js").write_text("console.log('dixit')")
    (web / "assets" / "style.css").write_text("body{}")
    (tmp_path / "secret.txt").write_text("not for the web")
    running = start(StaticSite(web))
    try:
        yield running
    finally:
        running.stop()


@pytest.mark.parametrize(
    ("path", "content_type", "text"),
    [
        ("/", "text/html; charset=utf-8", b"<!doctype html>"),
        ("/index.html", "text/html; charset=utf-8", b"<!doctype html>"),
        ("/assets/app.js", "text/javascript; charset=utf-8", b"console.log"),
        ("/assets/style.css", "text/css; charset=utf-8", b"body{}"),
        ("/play/g_0123456789abcdef", "text/html; charset=utf-8", b"<!doctype html>"),
    ],
)
def test_the_web_client_is_served_where_no_route_claims_the_path(
    site: GatewayServer, path: str, content_type: str, text: bytes
) -> None:
    status, headers, body = get(site, path)
    assert (status, headers["content-type"]) == (200, content_type)
    assert body.startswith(text)


def test_api_routes_win_over_the_web_client(site: GatewayServer) -> None:
    status, _, body = get(site, "/decks")
    assert (status, json.loads(body)) == (200, {"api": True})


@pytest.mark.parametrize(
    "path",
    [
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/assets/..%2f..%2fsecret.txt",
        "/%00",
        "/missing.js",
        "/" + "A" * 300,  # a name longer than the file system's (ENAMETOOLONG), not a 500
        "/assets/" + "A" * 300 + "/x.js",
        "/" + "/".join(["a" * 200] * 30),  # a path longer than the system's (PATH_MAX)
    ],
)
def test_nothing_outside_the_web_root_or_missing_is_served(site: GatewayServer, path: str) -> None:
    status, headers, body = get(site, path)
    assert status == 404
    assert headers["content-type"] == "application/problem+json"
    assert b"not for the web" not in body


def test_without_a_web_client_the_root_is_a_404_problem(server: GatewayServer) -> None:
    status, headers, _ = get(server, "/")
    assert (status, headers["content-type"]) == (404, "application/problem+json")


# -- DNS rebinding: a page under a foreign name reaching 127.0.0.1 --------------------------------


@pytest.mark.parametrize(
    "host",
    [
        "evil.example",
        "evil.example:{port}",
        "127.0.0.1.evil.example:{port}",
        "localhost.evil.example",
        "10.0.0.1:{port}",
        "user@127.0.0.1:{port}",
        "127.0.0.1:port",
        "",
    ],
)
def test_a_foreign_host_is_refused_with_a_403_problem(site: GatewayServer, host: str) -> None:
    for path in ("/decks", "/", "/_local/mail"):
        status, headers, body = get(site, path, host=host.format(port=site.port))
        assert status == 403
        assert headers["content-type"] == "application/problem+json"
        assert json.loads(body)["code"] == "host_refused"
        assert b"Dixit" not in body


def test_a_request_without_a_host_is_refused(server: GatewayServer) -> None:
    status, _, body = raw_exchange(server, b"GET /decks HTTP/1.0\r\n\r\n")
    assert (status, json.loads(body)["code"]) == (403, "host_refused")


@pytest.mark.parametrize(
    "host", ["127.0.0.1", "127.0.0.1:{port}", "localhost:{port}", "LOCALHOST", "[::1]:{port}", "[::1]"]
)
def test_a_loopback_host_with_any_port_is_served(site: GatewayServer, host: str) -> None:
    status, _, body = get(site, "/", host=host.format(port=site.port))
    assert (status, body.startswith(b"<!doctype html>")) == (200, True)
    assert get(site, "/decks", host=host.format(port=1))[0] == 200


def test_the_host_given_with_host_is_a_name_the_stack_answers_to() -> None:
    assert host_allowed("192.168.1.5:3000", served_names("192.168.1.5"))
    assert not host_allowed("192.168.1.6:3000", served_names("192.168.1.5"))
    # Bound for containers, the stack also answers to the name a container reaches it by.
    assert host_allowed("host.docker.internal:3000", served_names("0.0.0.0"))  # noqa: S104
    assert not host_allowed("host.docker.internal:3000", served_names("127.0.0.1"))
