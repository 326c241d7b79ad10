from __future__ import annotations

from .client import Client


def test_a_registered_player_can_create_a_game_and_see_it(players: list[Client]) -> None:
    host = players[0]
    created = host.post("/games", {"rules": "classic"})
    assert created.status == 201, created.raw
    game_id = created.body["game_id"]
    seen = host.get(f"/games/{game_id}")
    assert seen.status == 200
    assert seen.body["players"][0]["player_id"] == host.player_id
