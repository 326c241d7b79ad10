"""What the table-talk API tests share: a fixed minute, and saying and reading messages over HTTP."""

from __future__ import annotations

from datetime import UTC, datetime

from ..client import Client

T0 = datetime(2026, 12, 1, 12, 0, 5, tzinfo=UTC)


def say(client: Client, game_id: str, text: str) -> dict[str, object]:
    reply = client.post(f"/games/{game_id}/messages", {"text": text})
    assert reply.status == 201, reply.raw
    body: dict[str, object] = reply.body
    return body


def talk(client: Client, game_id: str, **query: str) -> dict[str, object]:
    reply = client.get(f"/games/{game_id}/messages", query=query or None)
    assert reply.status == 200, reply.raw
    body: dict[str, object] = reply.body
    return body
