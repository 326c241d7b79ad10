"""The AWS twin under concurrent clients: one conditional write wins, transactions copy no table."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

from local_stack.events import ACCOUNT_ID
from local_stack.twin import TwinServer, patch_transact_write_items

REGION = "us-east-1"
TABLE = "twin-race"
CONTENDERS = 12


@pytest.fixture(scope="module")
def twin() -> Iterator[str]:
    patch_transact_write_items()
    server = TwinServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    try:
        yield f"http://{host}:{port}"
    finally:
        server.stop()


def client(endpoint: str) -> Any:
    return boto3.client(
        "dynamodb",
        endpoint_url=endpoint,
        region_name=REGION,
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
        config=Config(retries={"max_attempts": 1}, max_pool_connections=CONTENDERS),
    )


@pytest.fixture
def table(twin: str) -> Iterator[Any]:
    dynamodb = client(twin)
    dynamodb.create_table(
        TableName=TABLE,
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        AttributeDefinitions=[
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "sk", "AttributeType": "S"},
        ],
        BillingMode="PAY_PER_REQUEST",
    )
    try:
        yield dynamodb
    finally:
        dynamodb.delete_table(TableName=TABLE)


def race(endpoint: str, write: Callable[[Any, int], None]) -> list[int]:
    """Every contender writes at the same instant, each with its own client; who succeeded."""
    winners: list[int] = []
    failures: list[str] = []
    start = threading.Barrier(CONTENDERS)
    clients = [client(endpoint) for _ in range(CONTENDERS)]

    def contend(index: int) -> None:
        start.wait()
        try:
            write(clients[index], index)
        except ClientError as error:
            failures.append(error.response["Error"]["Code"])
        else:
            winners.append(index)

    threads = [threading.Thread(target=contend, args=(index,)) for index in range(CONTENDERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(winners) + len(failures) == CONTENDERS
    return winners


@pytest.fixture
def wide_race_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each condition check lingers after it passes, so unserialized writers would overlap in moto."""
    from moto.dynamodb import models

    real = models.create_condition_expression_parser

    def lingering(*args: Any, **kwargs: Any) -> Any:
        parser = real(*args, **kwargs)
        real_parse = parser.parse

        def parse() -> Any:
            condition = real_parse()
            real_expr = condition.expr

            def expr(item: Any) -> bool:
                result = bool(real_expr(item))
                time.sleep(0.01)
                return result

            condition.expr = expr
            return condition

        parser.parse = parse
        return parser

    monkeypatch.setattr(models, "create_condition_expression_parser", lingering)


def version_of(dynamodb: Any) -> str:
    item = dynamodb.get_item(
        TableName=TABLE, Key={"pk": {"S": "GAME#1"}, "sk": {"S": "STATE"}}, ConsistentRead=True
    )
    return str(item["Item"]["version"]["N"])


@pytest.mark.usefixtures("wide_race_window")
@pytest.mark.parametrize("trial", range(3))
def test_of_simultaneous_conditional_updates_exactly_one_wins(twin: str, table: Any, trial: int) -> None:
    table.put_item(TableName=TABLE, Item={"pk": {"S": "GAME#1"}, "sk": {"S": "STATE"}, "version": {"N": "1"}})

    def bump(dynamodb: Any, index: int) -> None:
        dynamodb.update_item(
            TableName=TABLE,
            Key={"pk": {"S": "GAME#1"}, "sk": {"S": "STATE"}},
            UpdateExpression="SET version = :next, winner = :me",
            ConditionExpression="version = :seen",
            ExpressionAttributeValues={":seen": {"N": "1"}, ":next": {"N": "2"}, ":me": {"N": str(index)}},
        )

    assert len(race(twin, bump)) == 1
    assert version_of(table) == "2"


def test_of_simultaneous_conditional_transactions_exactly_one_wins(twin: str, table: Any) -> None:
    table.put_item(TableName=TABLE, Item={"pk": {"S": "GAME#1"}, "sk": {"S": "STATE"}, "version": {"N": "1"}})

    def join(dynamodb: Any, index: int) -> None:
        dynamodb.transact_write_items(
            TransactItems=[
                {
                    "Update": {
                        "TableName": TABLE,
                        "Key": {"pk": {"S": "GAME#1"}, "sk": {"S": "STATE"}},
                        "UpdateExpression": "SET version = :next",
                        "ConditionExpression": "version = :seen",
                        "ExpressionAttributeValues": {":seen": {"N": "1"}, ":next": {"N": "2"}},
                    }
                },
                {
                    "Put": {
                        "TableName": TABLE,
                        "Item": {"pk": {"S": f"PLAYER#{index}"}, "sk": {"S": "GAME#1"}},
                    }
                },
            ]
        )

    winners = race(twin, join)
    assert len(winners) == 1
    memberships = table.scan(
        TableName=TABLE, FilterExpression="sk = :g", ExpressionAttributeValues={":g": {"S": "GAME#1"}}
    )
    assert [item["pk"]["S"] for item in memberships["Items"]] == [f"PLAYER#{winners[0]}"]


def test_a_cancelled_transaction_restores_its_items_without_copying_the_table(twin: str, table: Any) -> None:
    from moto.dynamodb.models import dynamodb_backends

    backend = dynamodb_backends[ACCOUNT_ID][REGION]
    table.put_item(TableName=TABLE, Item={"pk": {"S": "GAME#1"}, "sk": {"S": "STATE"}, "version": {"N": "1"}})
    table.put_item(TableName=TABLE, Item={"pk": {"S": "GAME#2"}, "sk": {"S": "STATE"}, "version": {"N": "7"}})
    before = backend.tables[TABLE]
    with pytest.raises(ClientError) as cancelled:
        table.transact_write_items(
            TransactItems=[
                {
                    "Update": {
                        "TableName": TABLE,
                        "Key": {"pk": {"S": "GAME#2"}, "sk": {"S": "STATE"}},
                        "UpdateExpression": "SET version = :v",
                        "ExpressionAttributeValues": {":v": {"N": "8"}},
                    }
                },
                {"Put": {"TableName": TABLE, "Item": {"pk": {"S": "NEW"}, "sk": {"S": "ITEM"}}}},
                {
                    "ConditionCheck": {
                        "TableName": TABLE,
                        "Key": {"pk": {"S": "GAME#1"}, "sk": {"S": "STATE"}},
                        "ConditionExpression": "version = :two",
                        "ExpressionAttributeValues": {":two": {"N": "2"}},
                    }
                },
            ]
        )
    assert cancelled.value.response["Error"]["Code"] == "TransactionCanceledException"
    assert backend.tables[TABLE] is before  # moto's own rollback would have swapped in a deep copy
    item = table.get_item(TableName=TABLE, Key={"pk": {"S": "GAME#2"}, "sk": {"S": "STATE"}})["Item"]
    assert item["version"] == {"N": "7"}
    assert "Item" not in table.get_item(TableName=TABLE, Key={"pk": {"S": "NEW"}, "sk": {"S": "ITEM"}})


def test_a_transaction_that_passes_applies_every_write(twin: str, table: Any) -> None:
    table.transact_write_items(
        TransactItems=[
            {"Put": {"TableName": TABLE, "Item": {"pk": {"S": "A"}, "sk": {"S": "1"}}}},
            {"Put": {"TableName": TABLE, "Item": {"pk": {"S": "B"}, "sk": {"S": "1"}}}},
        ]
    )
    assert table.scan(TableName=TABLE)["Count"] == 2
