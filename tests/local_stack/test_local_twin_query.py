"""The twin's query patch: a query sees one partition or one index key, and answers exactly what moto's
own whole-table query answers, whatever writes came before (puts, updates, deletes, transactions)."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws

from local_stack.resources import create_table
from local_stack.template import load_template
from local_stack.twin import patch_dynamodb

TABLE = "twin-query"
PARTITIONS = [f"GAME#{n}" for n in range(6)]
SHARDS = [f"DUE#{n}" for n in range(3)]


@pytest.fixture
def dynamodb() -> Iterator[Any]:
    patch_dynamodb()
    env = {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
    }
    saved = {name: os.environ.get(name) for name in env}
    os.environ.update(env)
    try:
        with mock_aws():
            client = boto3.client("dynamodb")
            create_table(client, TABLE, load_template()["Resources"]["GameTable"])
            yield client
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _key(rng: random.Random) -> dict[str, Any]:
    return {"pk": {"S": rng.choice(PARTITIONS)}, "sk": {"S": f"S#{rng.randrange(8)}"}}


def _write_at_random(client: Any, rng: random.Random, writes: int) -> None:
    for _ in range(writes):
        key = _key(rng)
        kind = rng.choice(["put", "put", "update", "drop_due", "delete", "transaction", "failed_transaction"])
        due = {"due_shard": {"S": rng.choice(SHARDS)}, "due_at": {"N": str(rng.randrange(100))}}
        if kind == "put":
            client.put_item(TableName=TABLE, Item={**key, **(due if rng.random() < 0.7 else {})})
        elif kind == "update":
            client.update_item(
                TableName=TABLE,
                Key=key,
                UpdateExpression="SET due_shard = :s, due_at = :a",
                ExpressionAttributeValues={":s": due["due_shard"], ":a": due["due_at"]},
            )
        elif kind == "drop_due":
            client.update_item(TableName=TABLE, Key=key, UpdateExpression="REMOVE due_shard, due_at")
        elif kind == "delete":
            client.delete_item(TableName=TABLE, Key=key)
        else:
            other = _key(rng)
            items = [
                {"Put": {"TableName": TABLE, "Item": {**key, **due}}},
                {
                    "Update": {
                        "TableName": TABLE,
                        "Key": other,
                        "UpdateExpression": "SET due_shard = :s, due_at = :a",
                        "ExpressionAttributeValues": {":s": {"S": rng.choice(SHARDS)}, ":a": due["due_at"]},
                        # A failed condition cancels the whole transaction: both writes are undone.
                        **(
                            {"ConditionExpression": "attribute_exists(nothing)"}
                            if kind.startswith("f")
                            else {}
                        ),
                    }
                },
            ]
            if other == key:
                continue
            try:
                client.transact_write_items(TransactItems=items)
            except client.exceptions.TransactionCanceledException:
                assert kind == "failed_transaction"


def _everything(client: Any) -> list[dict[str, Any]]:
    return client.scan(TableName=TABLE, ConsistentRead=True)["Items"]  # type: ignore[no-any-return]


def _keys(items: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(item["pk"]["S"], item["sk"]["S"]) for item in items]


def _query_all(client: Any, page_size: int, **request: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    start: dict[str, Any] = {}
    while True:
        page = client.query(TableName=TABLE, Limit=page_size, **request, **start)
        found += page["Items"]
        if "LastEvaluatedKey" not in page:
            return found
        start = {"ExclusiveStartKey": page["LastEvaluatedKey"]}


@pytest.mark.parametrize("seed", range(4))
def test_a_partition_query_answers_the_partition_in_order_whatever_was_written(
    dynamodb: Any, seed: int
) -> None:
    rng = random.Random(seed)
    _write_at_random(dynamodb, rng, 150)
    everything = _everything(dynamodb)
    for partition in PARTITIONS:
        expected = sorted(_keys([i for i in everything if i["pk"]["S"] == partition]))
        for forward in (True, False):
            found = _query_all(
                dynamodb,
                page_size=3,
                KeyConditionExpression="pk = :p",
                ExpressionAttributeValues={":p": {"S": partition}},
                ScanIndexForward=forward,
            )
            assert _keys(found) == (expected if forward else expected[::-1])


@pytest.mark.parametrize("seed", range(4))
def test_an_index_query_answers_the_items_carrying_its_key_whatever_was_written(
    dynamodb: Any, seed: int
) -> None:
    rng = random.Random(seed)
    # The index is built on the first index query and kept current by the writes after it.
    dynamodb.query(
        TableName=TABLE,
        IndexName="due",
        KeyConditionExpression="due_shard = :s",
        ExpressionAttributeValues={":s": {"S": SHARDS[0]}},
    )
    for _ in range(3):
        _write_at_random(dynamodb, rng, 60)
        everything = _everything(dynamodb)
        for shard in SHARDS:
            carrying = [i for i in everything if i.get("due_shard", {}).get("S") == shard]
            by_due = sorted(carrying, key=lambda i: (int(i["due_at"]["N"]), i["pk"]["S"], i["sk"]["S"]))
            due_by_50 = [i for i in by_due if int(i["due_at"]["N"]) <= 50]
            found = _query_all(
                dynamodb,
                page_size=4,
                IndexName="due",
                KeyConditionExpression="due_shard = :s AND due_at <= :t",
                ExpressionAttributeValues={":s": {"S": shard}, ":t": {"N": "50"}},
            )
            assert sorted(_keys(found)) == sorted(_keys(due_by_50))
            assert [int(i["due_at"]["N"]) for i in found] == [int(i["due_at"]["N"]) for i in due_by_50]


def test_a_query_never_looks_at_other_partitions(dynamodb: Any) -> None:
    from moto.dynamodb.models import dynamodb_backends

    dynamodb.put_item(TableName=TABLE, Item={"pk": {"S": "GAME#0"}, "sk": {"S": "A"}})
    dynamodb.put_item(TableName=TABLE, Item={"pk": {"S": "GAME#1"}, "sk": {"S": "A"}})
    table = dynamodb_backends["123456789012"]["us-east-1"].tables[TABLE]
    # An item moto cannot compare: sorting the table, as unpatched moto does for every query, would fail.
    partition = table.items[next(k for k in table.items if k.value == "GAME#1")]
    partition[next(iter(partition))].hash_key = object()
    found = dynamodb.query(
        TableName=TABLE, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "GAME#0"}}
    )
    assert _keys(found["Items"]) == [("GAME#0", "A")]
