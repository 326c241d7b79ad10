"""Browser front-ends on other origins can read every answer, ETag included."""

from __future__ import annotations

from ..client import Client, call

ORIGIN = "https://dixit.example"


def test_a_game_view_carries_cors_headers_and_exposes_the_etag(players: list[Client]) -> None:
    game_id = players[0].post("/games", {}, headers={"Origin": ORIGIN}).body["game_id"]
    reply = players[0].get(f"/games/{game_id}", headers={"Origin": ORIGIN})
    assert reply.status == 200
    assert reply.headers["Access-Control-Allow-Origin"] in ("*", ORIGIN)
    assert "ETag" in reply.headers["Access-Control-Expose-Headers"]


def test_errors_refused_before_routing_carry_cors_headers_too(aws: None) -> None:
    reply = call("GET", "/players/me", headers={"Origin": ORIGIN})
    assert reply.status == 401
    assert reply.headers["Access-Control-Allow-Origin"] in ("*", ORIGIN)


def test_problems_from_the_rules_carry_cors_headers(players: list[Client]) -> None:
    reply = players[0].post("/games/g_0123456789abcdef/start", headers={"Origin": ORIGIN})
    assert reply.status == 404
    assert reply.headers["Access-Control-Allow-Origin"] in ("*", ORIGIN)
