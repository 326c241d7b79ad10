"""Idempotent POSTs: Powertools Idempotency, persisted in the game table itself."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from aws_lambda_powertools.utilities.idempotency import (
    DynamoDBPersistenceLayer,
    IdempotencyConfig,
    idempotent_function,
)
from aws_lambda_powertools.utilities.typing import LambdaContext

from app import aws_clients

MAX_KEY_LENGTH = 128


@cache
def _persistence(table_name: str) -> DynamoDBPersistenceLayer:
    # Built on first use: the layer creates its client in __init__.
    return DynamoDBPersistenceLayer(
        table_name=table_name,
        key_attr="pk",
        sort_key_attr="sk",
        static_pk_value="IDEMPOTENCY",
        expiry_attr="expires_at",
        boto3_client=aws_clients.dynamodb(),
    )


def reset() -> None:
    _persistence.cache_clear()


def run_once(
    *,
    table_name: str,
    ttl_seconds: int,
    player_id: str,
    key: str,
    route: str,
    body: Any,
    compute: Callable[[], dict[str, Any]],
    lambda_context: LambdaContext | None = None,
) -> dict[str, Any]:
    """Run `compute` once per (player, key, route); a retry gets the first answer back.

    The same key with a different body raises IdempotencyValidationError. With the invocation's
    `lambda_context`, an in-progress record lapses at that invocation's deadline, so a request killed
    by a timeout does not hold its key (409 request_in_progress) until the record's TTL.
    """
    config = IdempotencyConfig(
        event_key_jmespath="[player_id, key, route]",
        payload_validation_jmespath="body",
        expires_after_seconds=ttl_seconds,
        raise_on_no_idempotency_key=True,
        lambda_context=lambda_context,
    )

    @idempotent_function(  # type: ignore[untyped-decorator]
        data_keyword_argument="request", config=config, persistence_store=_persistence(table_name)
    )
    def once(request: dict[str, Any]) -> dict[str, Any]:
        return compute()

    result: dict[str, Any] = once(request={"player_id": player_id, "key": key, "route": route, "body": body})
    return result
