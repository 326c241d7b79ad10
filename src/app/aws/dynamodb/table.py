"""What every DynamoDB adapter of the game table shares: a lazily built client whose every fault is
translated once, and bounded, backed-off batch writes and reads.

A failed write condition stays a ClientError for the adapter to judge (it is a lost race, not a fault).
Throttling, timeouts, lost connections and DynamoDB's 5xx (once botocore's own retries are spent)
become StoreUnavailable, so no botocore exception ever leaves an adapter.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, cast

from botocore.exceptions import ClientError, HTTPClientError
from botocore.exceptions import ConnectionError as BotocoreConnectionError

from app.aws import clients as aws_clients
from app.core.errors import StoreUnavailable

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

BATCH_GET_LIMIT = 100
BATCH_WRITE_LIMIT = 25
# Unprocessed items are DynamoDB shedding load: a few backed-off tries, then the caller hears 503.
UNPROCESSED_ATTEMPTS = 5
_UNPROCESSED_BASE_SECONDS = 0.05

# Error codes that mean "not now" rather than "not this": the request was refused or lost, not judged.
_UNAVAILABLE_CODES = frozenset(
    {
        "ThrottlingException",
        "ProvisionedThroughputExceededException",
        "RequestLimitExceeded",
        "InternalServerError",
        "ServiceUnavailable",
        # Inside a cancelled transaction's reasons:
        "ThrottlingError",
        "ProvisionedThroughputExceeded",
    }
)
_FAULTS = (ClientError, HTTPClientError, BotocoreConnectionError)


def error_code(error: ClientError) -> str:
    return str(error.response.get("Error", {}).get("Code", ""))


def is_unavailable(error: Exception) -> bool:
    # Timeouts (connect and read), refused and dropped connections: botocore's transport errors.
    if isinstance(error, HTTPClientError | BotocoreConnectionError):
        return True
    if not isinstance(error, ClientError):
        return False
    status = int(error.response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0)
    if error_code(error) in _UNAVAILABLE_CODES or status >= 500:
        return True
    reasons = error.response.get("CancellationReasons") or []
    return any(reason.get("Code") in _UNAVAILABLE_CODES for reason in reasons)


def is_conditional_failure(error: ClientError) -> bool:
    """A condition (or a concurrent transaction on the same item) refused the write: a lost race."""
    return error_code(error) in ("ConditionalCheckFailedException", "TransactionCanceledException") and not (
        is_unavailable(error)
    )


def written_if_condition_held(write: Callable[..., Any], /, **request: Any) -> bool:
    """Make a conditional write; False when its condition (or a transaction's) refused it."""
    try:
        write(**request)
    except ClientError as error:
        if is_conditional_failure(error):
            return False
        raise
    return True


def _translated(call: Callable[..., Any]) -> Callable[..., Any]:
    def translated(*args: Any, **kwargs: Any) -> Any:
        try:
            return call(*args, **kwargs)
        except _FAULTS as error:
            if is_unavailable(error):
                raise StoreUnavailable() from error
            raise

    return translated


class _TranslatingClient:
    """The boto3 client with every call's faults translated: no adapter method can forget it."""

    def __init__(self, client: DynamoDBClient) -> None:
        self._client = client
        # Each operation's wrapper is made once: a move makes three calls, each asked for by name.
        self._translated: dict[str, Any] = {}

    def __getattr__(self, name: str) -> Any:
        wrapped = self._translated.get(name)
        if wrapped is not None:
            return wrapped
        found = getattr(self._client, name)
        if not callable(found):
            return found
        wrapped = self._translated[name] = _translated(found)
        return wrapped


class TableAdapter:
    """The game table and a lazily built client: what every DynamoDB adapter of the table starts from."""

    def __init__(self, table_name: str, client: DynamoDBClient | None = None) -> None:
        self.table_name = table_name
        self._raw = client
        self._client: _TranslatingClient | None = None
        self.pause: Callable[[float], None] = time.sleep

    @property
    def client(self) -> DynamoDBClient:
        # Asked each time: adapters live as long as the environment, and clients.reset() (tests switching
        # endpoints) must reach them too. clients.dynamodb() is itself cached, so this costs a lookup.
        raw = self._raw if self._raw is not None else aws_clients.dynamodb()
        if self._client is None or self._client._client is not raw:
            self._client = _TranslatingClient(raw)
        return cast("DynamoDBClient", self._client)

    def conditional_update(self, key: dict[str, Any], **request: Any) -> bool:
        """Update the item at `key` (`request`: the expressions); False when its condition refused it."""
        return written_if_condition_held(
            self.client.update_item, TableName=self.table_name, Key=key, **request
        )

    def conditional_delete(self, key: dict[str, Any], **request: Any) -> bool:
        """Delete the item at `key` (`request`: the condition); False when its condition refused it."""
        return written_if_condition_held(
            self.client.delete_item, TableName=self.table_name, Key=key, **request
        )

    def query_all(self, **kwargs: Any) -> Iterator[dict[str, Any]]:
        """Every item a query matches, page by page (a fault on any page is translated too)."""
        request: dict[str, Any] = {"TableName": self.table_name, **kwargs}
        while True:
            page = self.client.query(**request)
            yield from page.get("Items", [])
            start = page.get("LastEvaluatedKey")
            if not start:
                return
            request["ExclusiveStartKey"] = start

    def batch_write(self, requests: Sequence[dict[str, Any]]) -> None:
        """Put and delete requests in batches of 25, retrying what DynamoDB leaves unprocessed."""
        for begin in range(0, len(requests), BATCH_WRITE_LIMIT):
            pending: dict[str, Any] = {self.table_name: list(requests[begin : begin + BATCH_WRITE_LIMIT])}
            self._until_processed(
                lambda batch: self.client.batch_write_item(RequestItems=batch).get("UnprocessedItems"),
                pending,
            )

    def batch_get(self, keys: Sequence[dict[str, Any]], **table_request: Any) -> list[dict[str, Any]]:
        """The items at these keys (any order; missing ones left out), in batches of 100.

        `table_request`: more of the table's request (ProjectionExpression, ExpressionAttributeNames).
        """
        found: list[dict[str, Any]] = []

        def get(batch: dict[str, Any]) -> Any:
            response = self.client.batch_get_item(RequestItems=batch)
            found.extend(response.get("Responses", {}).get(self.table_name, []))
            return response.get("UnprocessedKeys")

        for begin in range(0, len(keys), BATCH_GET_LIMIT):
            self._until_processed(
                get,
                {self.table_name: {"Keys": list(keys[begin : begin + BATCH_GET_LIMIT]), **table_request}},
            )
        return found

    def _until_processed(self, send: Callable[[dict[str, Any]], Any], pending: dict[str, Any]) -> None:
        for attempt in range(UNPROCESSED_ATTEMPTS):
            if attempt:
                # Full jitter: concurrent writers shed by the same partition do not come back together.
                self.pause(random.uniform(0, _UNPROCESSED_BASE_SECONDS * 2**attempt))
            pending = dict(send(pending) or {})
            if not pending:
                return
        raise StoreUnavailable()
