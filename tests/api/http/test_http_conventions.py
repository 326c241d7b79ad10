"""HTTP conventions a client relies on: Location on every 201, WWW-Authenticate on every 401, and the
headers a browser script may read (CORS expose)."""

from __future__ import annotations

import json

import pytest

from ..client import Client, call
from ..helpers import assert_problem


def test_registering_answers_201_with_the_location_of_the_player(aws: None) -> None:
    reply = call("POST", "/players", body={"name": "Ada"})
    assert reply.status == 201
    assert reply.headers["Location"] == "/players/me"


def test_creating_a_game_answers_201_with_its_location(players: list[Client]) -> None:
    reply = players[0].post("/games", {})
    assert reply.status == 201
    assert reply.headers["Location"] == f"/games/{reply.body['game_id']}"
    assert players[0].get(reply.headers["Location"]).status == 200


def test_a_replayed_creation_carries_the_same_location(players: list[Client]) -> None:
    first = players[0].post("/games", {}, headers={"Idempotency-Key": "k-1"})
    again = players[0].post("/games", {}, headers={"Idempotency-Key": "k-1"})
    assert again.status == 201
    assert again.headers["Location"] == first.headers["Location"]


def test_on_the_execute_api_domain_the_location_starts_with_the_stage(aws: None) -> None:
    from handlers.api import lambda_handler

    from ..client import FakeContext, make_event

    event = make_event("POST", "/players", body={"name": "Ada"})
    event["requestContext"]["domainName"] = "abc123.execute-api.eu-west-1.amazonaws.com"
    result = lambda_handler(event, FakeContext())
    headers = {**result.get("headers", {}), **(result.get("multiValueHeaders") or {})}
    assert headers["Location"] in ("/test/players/me", ["/test/players/me"])


@pytest.mark.parametrize(
    ("authorization", "code", "challenge"),
    [
        (None, "missing_token", "Bearer"),
        ("Basic YWRhOnB3", "missing_token", "Bearer"),
        ("Bearer p_0123456789abcdef.nope", "invalid_token", 'Bearer error="invalid_token"'),
        ("Bearer garbage", "invalid_token", 'Bearer error="invalid_token"'),
    ],
)
def test_every_401_carries_a_bearer_challenge(
    aws: None, authorization: str | None, code: str, challenge: str
) -> None:
    headers = {"Authorization": authorization} if authorization else {}
    reply = call("GET", "/players/me/games", headers=headers)
    assert_problem(reply, 401, code)
    assert reply.headers["WWW-Authenticate"] == challenge


def test_a_401_raised_after_routing_carries_the_challenge_too() -> None:
    from app.core.errors import NotAuthenticated
    from handlers.problems import app_problem

    response = app_problem(NotAuthenticated("missing_token", "send a token"))
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == "Bearer"
    assert json.loads(str(response.body))["code"] == "missing_token"


def test_browsers_may_read_etag_location_and_retry_after(players: list[Client]) -> None:
    reply = players[0].post("/games", {}, headers={"Origin": "https://example.org"})
    exposed = {h.strip() for h in reply.headers["Access-Control-Expose-Headers"].split(",")}
    assert exposed >= {"ETag", "Location", "Retry-After"}
