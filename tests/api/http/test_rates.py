"""Per-client rates (#25: 1): registrations per source address, new decks per player, 429 with Retry-After."""

from __future__ import annotations

from typing import Any

from app.core import rates

from ..client import Client, FakeContext, Reply, make_event
from ..helpers import assert_problem


def register_from(source: str, name: str = "Ada") -> Reply:
    """POST /players as API Gateway hands it on, from `source`."""
    from handlers.api import lambda_handler

    event = make_event("POST", "/players", body={"name": name})
    event["requestContext"]["identity"]["sourceIp"] = source
    result: dict[str, Any] = lambda_handler(event, FakeContext())
    headers = dict(result.get("headers") or {})
    for name, values in (result.get("multiValueHeaders") or {}).items():
        headers.setdefault(name, values[0])
    return Reply(result["statusCode"], headers, result.get("body") or "")


def test_one_source_address_registers_at_most_its_hourly_share(aws: None) -> None:
    for _ in range(rates.REGISTRATIONS_PER_SOURCE.limit):
        assert register_from("203.0.113.9").status == 201
    refused = register_from("203.0.113.9")
    assert_problem(refused, 429, "too_many_registrations")
    assert 1 <= int(refused.headers["Retry-After"]) <= 3_600
    assert register_from("198.51.100.4").status == 201  # another address has its own share


def test_the_local_gateways_loopback_source_is_not_counted(aws: None) -> None:
    for _ in range(rates.REGISTRATIONS_PER_SOURCE.limit + 1):
        assert register_from("127.0.0.1").status == 201


def test_a_player_creates_at_most_ten_decks_a_day(players: list[Client]) -> None:
    owner = players[0]
    for _ in range(rates.DECKS_PER_PLAYER.limit):
        assert owner.post("/decks", {"name": "Mine", "card_count": 6}).status == 201
    refused = owner.post("/decks", {"name": "One more", "card_count": 6})
    assert_problem(refused, 429, "too_many_decks")
    assert int(refused.headers["Retry-After"]) >= 1
    assert players[1].post("/decks", {"name": "Theirs", "card_count": 6}).status == 201
