"""The API as a client sees it: a transport that sends one request, and a player that holds a token.

The transport is a protocol so the same bots drive a real URL (HttpTransport) or, in `make bench`, the
Lambda handler in-process.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class Reply:
    status: int
    headers: dict[str, str]  # names in lower case
    body: Any


class Transport(Protocol):
    def __call__(self, method: str, path: str, body: Any, headers: dict[str, str]) -> Reply: ...


class HttpTransport:
    """urllib against a base URL; one connection per request, so it is safe to share between threads."""

    def __init__(self, base_url: str, timeout: float = 30.0) -> None:
        if not base_url.startswith(("http://", "https://")):
            raise ValueError(f"not an http(s) URL: {base_url}")
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout

    def __call__(self, method: str, path: str, body: Any, headers: dict[str, str]) -> Reply:
        data = None if body is None else json.dumps(body).encode()
        # The scheme was checked in __init__: only http(s) reaches urlopen.
        request = urllib.request.Request(self.base_url + path, data=data, method=method)  # noqa: S310
        for name, value in {"Content-Type": "application/json", **headers}.items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:  # noqa: S310
                return _reply(response.status, response.headers.items(), response.read())
        except urllib.error.HTTPError as error:
            return _reply(error.code, error.headers.items(), error.read())


def _reply(status: int, headers: Any, raw: bytes) -> Reply:
    try:
        body = json.loads(raw) if raw else None
    except ValueError:
        body = raw.decode(errors="replace")
    return Reply(status, {name.lower(): value for name, value in headers}, body)


# Called with (route label, status, seconds) after every request: progress and latency accounting.
Recorder = Callable[[str, int, float], None]


class ApiError(Exception):
    def __init__(self, label: str, reply: Reply) -> None:
        code = reply.body.get("code") if isinstance(reply.body, dict) else None
        super().__init__(f"{label}: {reply.status} {code or reply.body!r}")
        self.reply = reply


@dataclass
class Player:
    """One seat-holder: registers once, then sends every request with its bearer token."""

    transport: Transport
    name: str
    record: Recorder | None = None
    token: str = ""
    player_id: str = ""
    etags: dict[str, str] = field(default_factory=dict)
    views: dict[str, Any] = field(default_factory=dict)

    def send(self, label: str, method: str, path: str, body: Any = None, **headers: str) -> Reply:
        if self.token:
            headers = {"Authorization": f"Bearer {self.token}", **headers}
        started = time.perf_counter()
        reply = self.transport(method, path, body, headers)
        if self.record is not None:
            self.record(label, reply.status, time.perf_counter() - started)
        return reply

    def expect(self, label: str, method: str, path: str, body: Any = None, ok: int = 200) -> Any:
        reply = self.send(label, method, path, body)
        if reply.status != ok:
            raise ApiError(label, reply)
        return reply.body

    def register(self) -> Player:
        created = self.expect("register", "POST", "/players", {"name": self.name}, ok=201)
        self.token, self.player_id = created["token"], created["player_id"]
        return self

    def view(self, game_id: str) -> dict[str, Any]:
        """This player's view of the game, asking with If-None-Match so an unchanged game costs a 304."""
        headers = {"If-None-Match": self.etags[game_id]} if game_id in self.etags else {}
        reply = self.send("view", "GET", f"/games/{game_id}", None, **headers)
        if reply.status == 304:
            return dict(self.views[game_id])
        if reply.status != 200:
            raise ApiError("view", reply)
        self.remember(game_id, reply)
        return dict(reply.body)

    def remember(self, game_id: str, reply: Reply) -> None:
        if "etag" in reply.headers:
            self.etags[game_id] = reply.headers["etag"]
            self.views[game_id] = reply.body
