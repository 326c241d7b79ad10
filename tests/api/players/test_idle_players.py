"""Players who never sit at a table expire (DynamoDB TTL); one game keeps them for good (#25: 1)."""

from __future__ import annotations

import time
from typing import Any

from app.aws.dynamodb.items import player_key
from app.core.settings import AppSettings

from ..client import Client
from ..helpers import create_game

DAYS = AppSettings().idle_player_days


def profile(table: Any, client: Client) -> dict[str, Any]:
    item: dict[str, Any] = table.get_item(Key={k: v["S"] for k, v in player_key(client.player_id).items()})[
        "Item"
    ]
    return item


def test_a_new_player_carries_an_expiry_n_days_out(aws: None, table: Any) -> None:
    ada = Client("Ada").register()
    item = profile(table, ada)
    created = int(item["expires_at"]) - DAYS * 86_400
    assert abs(created - int(time.time())) < 3_600


def test_creating_a_game_keeps_the_player_for_good(players: list[Client], table: Any) -> None:
    create_game(players[0])
    assert "expires_at" not in profile(table, players[0])
    assert "expires_at" in profile(table, players[1])


def test_joining_a_game_keeps_the_player_for_good(players: list[Client], table: Any) -> None:
    game_id = create_game(players[0])
    assert players[1].post(f"/games/{game_id}/join").status == 200
    assert "expires_at" not in profile(table, players[1])
    assert "expires_at" in profile(table, players[2])
