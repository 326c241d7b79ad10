"""Write units per move: at most the game item's own units plus one, index writes included.

moto reports no consumed capacity, so the units are computed by DynamoDB's rules from what each move
actually wrote: 1 WCU per started KB of the larger of the old and new item, and for each keys-only index
nothing when its key is unchanged, 1 when the entry appears or goes, 2 when the key changes. (A
transaction doubles all of it: a join writes the player's membership with the game, outside what this
test holds to. A round-scoring vote is no transaction: the stream consumer writes the round's history.)
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import boto3
import pytest
from boto3.dynamodb.conditions import Key

from app.aws import clients as aws_clients
from tests.support.aws import TABLE, game_table_resource

from ..client import Client
from ..helpers import started
from ..json_bot import play_to_the_end
from ..stream import StreamFeed, invoke_notify

KB = 1024


def _value_size(value: dict[str, Any]) -> int:
    ((kind, inner),) = value.items()
    if kind == "S":
        return len(inner.encode())
    if kind == "N":
        digits = str(Decimal(inner)).lstrip("-").replace(".", "").strip("0") or "0"
        return math.ceil(len(digits) / 2) + 1
    if kind == "B":  # the compressed game state (app.games.state_codec)
        return len(inner)
    if kind == "BOOL" or kind == "NULL":
        return 1
    if kind == "SS":
        return sum(len(s.encode()) for s in inner)
    if kind == "M":
        return 3 + sum(1 + len(k.encode()) + _value_size(v) for k, v in inner.items())
    if kind == "L":
        return 3 + sum(1 + _value_size(v) for v in inner)
    raise AssertionError(f"unsized type {kind}")


def item_size(item: dict[str, Any] | None) -> int:
    return 0 if not item else sum(len(name.encode()) + _value_size(v) for name, v in item.items())


def index_keys() -> list[list[str]]:
    indexes = game_table_resource()["Properties"]["GlobalSecondaryIndexes"]
    return [[k["AttributeName"] for k in index["KeySchema"]] for index in indexes]


def index_units(old: dict[str, Any] | None, new: dict[str, Any] | None) -> int:
    """Keys-only indexes: an unchanged key costs nothing, an entry put or removed 1, a moved key 2."""
    units = 0
    for names in index_keys():
        was = [old[n] for n in names] if old and all(n in old for n in names) else None
        now = [new[n] for n in names] if new and all(n in new for n in names) else None
        if was != now:
            units += (was is not None) + (now is not None)
    return units


class GameWrites:
    """Every write of a game item (sk = STATE) through the app's client: the item before and after."""

    def __init__(self) -> None:
        self.raw = boto3.client("dynamodb")  # not hooked: its reads are ours, not the app's
        self.writes: list[tuple[str, dict[str, Any] | None, dict[str, Any] | None]] = []
        self._pending: list[tuple[str, dict[str, Any], dict[str, Any] | None]] = []

    def _game_keys(self, name: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        if name == "PutItem":
            items = [params["Item"]]
        elif name == "UpdateItem":
            items = [params["Key"]]
        elif name == "TransactWriteItems":
            items = [e["Put"]["Item"] for e in params["TransactItems"] if "Put" in e]
        else:
            return []
        return [{"pk": i["pk"], "sk": i["sk"]} for i in items if i["sk"]["S"] == "STATE"]

    def _get(self, key: dict[str, Any]) -> dict[str, Any] | None:
        item: dict[str, Any] | None = self.raw.get_item(TableName=TABLE, Key=key, ConsistentRead=True).get(
            "Item"
        )
        return item

    def before(self, params: dict[str, Any], model: Any, **_: Any) -> None:
        self._pending = [(model.name, key, self._get(key)) for key in self._game_keys(model.name, params)]

    def after(self, parsed: dict[str, Any], **_: Any) -> None:
        if "Error" not in parsed:
            self.writes += [(name, old, self._get(key)) for name, key, old in self._pending]
        self._pending = []


@pytest.fixture
def game_writes(aws: None) -> Iterator[GameWrites]:
    recorder = GameWrites()
    client = aws_clients.dynamodb()
    client.meta.events.register("provide-client-params.dynamodb", recorder.before)
    client.meta.events.register("after-call.dynamodb", recorder.after)
    yield recorder
    client.meta.events.unregister("provide-client-params.dynamodb", recorder.before)
    client.meta.events.unregister("after-call.dynamodb", recorder.after)


def test_every_index_of_the_table_projects_keys_only() -> None:
    indexes = game_table_resource()["Properties"]["GlobalSecondaryIndexes"]
    assert {i["IndexName"]: i["Projection"]["ProjectionType"] for i in indexes} == {
        "gsi1": "KEYS_ONLY",
        "due": "KEYS_ONLY",
    }


@pytest.mark.parametrize(("seats", "rules"), [(3, "classic"), (6, "classic"), (8, "odyssey")])
def test_no_move_costs_more_than_its_item_kilobytes_plus_one_write_unit(
    players: list[Client], game_writes: GameWrites, seats: int, rules: str
) -> None:
    clients = players[:seats]
    game_id = started(clients, rules=rules, max_players=seats, target_score=12)
    game_writes.writes.clear()  # creation, joins and the start are checked below, apart

    play_to_the_end(clients, game_id, seed=seats)

    assert len(game_writes.writes) > 10
    index_moves = 0
    for name, old, new in game_writes.writes:
        item_units = math.ceil(max(item_size(old), item_size(new)) / KB)
        write_units = item_units + index_units(old, new)
        assert write_units <= item_units + 1, (name, write_units)
        index_moves += index_units(old, new) > 0
    # Only the game's end writes the index (it leaves the due index); no move in between does.
    assert index_moves == 1
    assert "due_at" not in (game_writes.writes[-1][2] or {})


def test_starting_a_public_game_only_leaves_the_lobby_listing(
    players: list[Client], game_writes: GameWrites
) -> None:
    started(players[:4])
    units = [index_units(old, new) for _, old, new in game_writes.writes]
    # Created (listed as a lobby, and due to be looked at), three joins, then the start.
    assert units == [2, 0, 0, 0, 1]


def test_every_move_of_a_five_player_game_is_one_put_of_one_write_unit_the_scoring_votes_included(
    players: list[Client], game_writes: GameWrites
) -> None:
    clients = players[:5]
    game_id = started(clients, max_players=5, target_score=12)
    game_writes.writes.clear()
    calls: list[tuple[str, list[str]]] = []

    def record(params: dict[str, Any], model: Any, **_: Any) -> None:
        if model.name == "TransactWriteItems":
            actions = [next(iter(e.values())) for e in params["TransactItems"]]
            calls.append((model.name, [(a.get("Item") or a["Key"])["sk"]["S"] for a in actions]))
        elif model.name in ("PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem"):
            calls.append(
                (model.name, [(params.get("Item") or params.get("Key") or {"sk": {"S": "?"}})["sk"]["S"]])
            )

    client = aws_clients.dynamodb()
    client.meta.events.register("provide-client-params.dynamodb", record)
    try:
        final = play_to_the_end(clients, game_id, seed=5)
    finally:
        client.meta.events.unregister("provide-client-params.dynamodb", record)

    # A whole game, several rounds scored: each scoring vote is among the moves below.
    assert final["phase"] == "finished"
    assert final["last_round"]["number"] >= 3
    # One PutItem of the game item per move: no transaction, no round, inbox or other item beside it.
    assert calls
    assert all(call == ("PutItem", ["STATE"]) for call in calls), calls
    assert len(game_writes.writes) == len(calls)
    units = [math.ceil(max(item_size(old), item_size(new)) / KB) for _, old, new in game_writes.writes]
    assert units == [1] * len(calls)
    # The indexes: only the game's last move writes one (it leaves the due index, as a finished game).
    assert [index_units(old, new) for _, old, new in game_writes.writes[:-1]] == [0] * (len(calls) - 1)


def test_the_stream_consumer_writes_each_scored_round_once_from_the_game_items_images(
    players: list[Client], feed: StreamFeed, table: Any
) -> None:
    clients = players[:5]
    game_id = started(clients, max_players=5, target_score=12)
    final = play_to_the_end(clients, game_id, seed=5)
    pk = f"GAME#{game_id}"

    def stored_rounds() -> list[dict[str, Any]]:
        key = Key("pk").eq(pk) & Key("sk").begins_with("ROUND#")
        return list(table.query(KeyConditionExpression=key)["Items"])

    assert stored_rounds() == []  # the moves wrote none
    event = feed.event()
    assert invoke_notify(event) == {"batchItemFailures": []}
    written = stored_rounds()
    assert [item["sk"] for item in written] == [
        f"ROUND#{n:04d}" for n in range(1, final["last_round"]["number"] + 1)
    ]
    # A batch delivered again (Lambda retries whole batches) rewrites the same items, no more.
    assert invoke_notify(event) == {"batchItemFailures": []}
    assert stored_rounds() == written
