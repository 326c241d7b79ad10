"""A hundred messages at a table cost its moves nothing: they live beside the game item, never in it."""

from __future__ import annotations

import math
from typing import Any

from app import bootstrap
from app.aws import clients as aws_clients
from app.talk.records import MessageRecord

from ..client import Client
from ..games.test_write_units import KB, GameWrites, game_writes, item_size  # noqa: F401  (a fixture)
from ..helpers import started
from ..json_bot import play_to_the_end


def test_a_move_in_a_game_with_a_hundred_messages_is_still_one_put_of_one_write_unit(
    players: list[Client],
    game_writes: GameWrites,  # noqa: F811
) -> None:
    clients = players[:5]
    game_id = started(clients, max_players=5, target_score=12, table_talk="always")
    posted = clients[1].post(f"/games/{game_id}/messages", {"text": "the first of many"})
    assert posted.status == 201, posted.raw
    # The other 99 straight into the store: the per-minute rate would take an hour over HTTP.
    talk = bootstrap.services().talk
    for n in range(99):
        author = clients[n % 5]
        talk.put_message(
            MessageRecord(
                game_id, f"m_{1_796_040_000_000 + n:013d}{n:08x}", author.player_id, "Player", "x" * 300, 1,
                "storytelling", "2026-11-30T12:00:00.000+00:00",
            ),
            expires_at=None,
        )  # fmt: skip
    assert len(clients[0].get(f"/games/{game_id}/messages", query={"limit": "100"}).body["messages"]) == 100
    game_writes.writes.clear()
    calls: list[tuple[str, list[str]]] = []

    def record(params: dict[str, Any], model: Any, **_: Any) -> None:
        if model.name in ("PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"):
            items = params.get("TransactItems") or [params.get("Item") or params.get("Key") or {}]
            calls.append((model.name, [str(i.get("sk", {}).get("S", "?")) for i in items]))

    client = aws_clients.dynamodb()
    client.meta.events.register("provide-client-params.dynamodb", record)
    try:
        final = play_to_the_end(clients, game_id, seed=5)
    finally:
        client.meta.events.unregister("provide-client-params.dynamodb", record)

    assert final["phase"] == "finished"
    assert calls
    assert all(call == ("PutItem", ["STATE"]) for call in calls), calls
    units = [math.ceil(max(item_size(old), item_size(new)) / KB) for _, old, new in game_writes.writes]
    assert units == [1] * len(calls)
