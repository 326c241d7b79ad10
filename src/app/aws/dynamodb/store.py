"""The only module that talks to DynamoDB: the single game table (layout in docs/architecture.md).

It implements the Store port. A failed write condition becomes the domain's VersionConflict; throttling,
timeouts, lost connections and DynamoDB's 5xx (once botocore's own retries are spent) become
StoreUnavailable, so no botocore exception ever leaves this module.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, ParamSpec, TypeVar

from botocore.exceptions import ClientError, HTTPClientError
from botocore.exceptions import ConnectionError as BotocoreConnectionError

from app.aws import clients as aws_clients
from app.core.errors import StoreUnavailable, VersionConflict
from app.core.records import (
    FeedItem,
    GameRecord,
    GameStamp,
    Membership,
    PlayerRecord,
    StoredAnswer,
    Visibility,
)
from app.games.due_index import shard_of
from app.games.ports import FINISHED_PREFIX, finished_key
from app.webhooks.records import (
    DeliveryAttempt,
    WebhookRecord,
    attempt_from_item,
    attempt_item,
    webhook_from_item,
    webhook_item,
    webhook_key,
)
from dixit.state import GameState, Phase, RoundResult

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

LOBBY = "LOBBY"
INDEX = "gsi1"  # public lobbies, keys only
DUE_INDEX = "due"  # app.games.due_index, keys only
_BATCH_GET_LIMIT = 100
_BATCH_WRITE_LIMIT = 25
IDEMPOTENCY_PK = "IDEMPOTENCY"

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

P = ParamSpec("P")
R = TypeVar("R")


def _code(error: ClientError) -> str:
    return str(error.response.get("Error", {}).get("Code", ""))


def _is_unavailable(error: Exception) -> bool:
    # Timeouts (connect and read), refused and dropped connections: botocore's transport errors.
    if isinstance(error, HTTPClientError | BotocoreConnectionError):
        return True
    if not isinstance(error, ClientError):
        return False
    status = int(error.response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0)
    if _code(error) in _UNAVAILABLE_CODES or status >= 500:
        return True
    reasons = error.response.get("CancellationReasons") or []
    return any(reason.get("Code") in _UNAVAILABLE_CODES for reason in reasons)


def _faults_are_unavailable(method: Callable[P, R]) -> Callable[P, R]:
    """Turn a store fault into StoreUnavailable: the caller answers 503 and the client retries."""

    @functools.wraps(method)
    def translated(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except (ClientError, HTTPClientError, BotocoreConnectionError) as error:
            if _is_unavailable(error):
                raise StoreUnavailable() from error
            raise

    return translated


def _player_key(player_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"PLAYER#{player_id}"}, "sk": {"S": "PROFILE"}}


def _game_key(game_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"GAME#{game_id}"}, "sk": {"S": "STATE"}}


def _membership_key(player_id: str, game_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"PLAYER#{player_id}"}, "sk": {"S": f"GAME#{game_id}"}}


def _finished_membership_key(entry: Membership) -> dict[str, Any]:
    return {"pk": {"S": f"PLAYER#{entry.player_id}"}, "sk": {"S": FINISHED_PREFIX + finished_key(entry)}}


def _entry_attributes(entry: Membership) -> dict[str, Any]:
    return {
        "game_id": {"S": entry.game_id},
        "entry": {"S": entry.to_json()},
        "entry_version": {"N": str(entry.version)},
    }


def _membership_from_item(item: dict[str, Any]) -> Membership | None:
    if "entry" not in item:
        return None
    player_id = item["pk"]["S"].removeprefix("PLAYER#")
    version = int(item.get("entry_version", {}).get("N", "0"))
    return Membership.from_json(player_id, item["game_id"]["S"], item["entry"]["S"], version)


def _game_item(record: GameRecord) -> dict[str, Any]:
    state = record.state
    item: dict[str, Any] = {
        **_game_key(record.game_id),
        "version": {"N": str(state.version)},
        "state": {"S": state.to_json()},
        "phase": {"S": state.phase.value},
        "visibility": {"S": record.visibility.value},
        "invite_code": {"S": record.invite_code},
        "created_at": {"S": record.created_at},
        "updated_at": {"S": record.updated_at},
    }
    if record.recent_requests:
        item["requests"] = {"S": " ".join(record.recent_requests)}
    # Read by projection for conditional GETs (game_stamp): who may see the game, without its state.
    member_ids = [p.player_id for p in state.players]
    if member_ids:
        item["members"] = {"SS": member_ids}
    # Both indexes are sparse and keys only, so a move that leaves their keys alone costs them nothing.
    if state.phase is Phase.LOBBY and record.visibility is Visibility.PUBLIC:
        item["gsi1pk"] = {"S": LOBBY}
        item["gsi1sk"] = {"S": f"{record.created_at}#{record.game_id}"}
    if record.due_at is not None and state.phase is not Phase.FINISHED:
        item["due_shard"] = {"S": shard_of(record.game_id)}
        item["due_at"] = {"N": str(record.due_at)}
    return item


def _game_from_item(item: dict[str, Any]) -> GameRecord:
    due = item.get("due_at")
    return GameRecord(
        state=GameState.from_json(item["state"]["S"]),
        visibility=Visibility(item["visibility"]["S"]),
        invite_code=item["invite_code"]["S"],
        created_at=item["created_at"]["S"],
        updated_at=item["updated_at"]["S"],
        due_at=None if due is None else int(due["N"]),
        recent_requests=tuple(item["requests"]["S"].split()) if "requests" in item else (),
    )


def _answer_put(table_name: str, answer: StoredAnswer, now: int) -> dict[str, Any]:
    # An expired record that DynamoDB's TTL has not swept yet does not hold its key any longer.
    return {
        "TableName": table_name,
        "Item": {
            "pk": {"S": IDEMPOTENCY_PK},
            "sk": {"S": answer.key_id},
            "fingerprint": {"S": answer.fingerprint},
            "answer": {"B": answer.payload},
            "expires_at": {"N": str(answer.expires_at)},
        },
        "ConditionExpression": "attribute_not_exists(pk) OR expires_at <= :now",
        "ExpressionAttributeValues": {":now": {"N": str(now)}},
    }


def _is_conditional_failure(error: ClientError) -> bool:
    """A condition (or a concurrent transaction on the same item) refused the write: a lost race."""
    return _code(error) in ("ConditionalCheckFailedException", "TransactionCanceledException") and not (
        _is_unavailable(error)
    )


def _written_if_condition_held(write: Callable[..., Any], /, **request: Any) -> bool:
    """Make a conditional write; False when its condition (or a transaction's) refused it."""
    try:
        write(**request)
    except ClientError as error:
        if _is_conditional_failure(error):
            return False
        raise
    return True


def _version_in(item: dict[str, Any] | None) -> int | None:
    if not item or "version" not in item:
        return None
    return int(item["version"]["N"])


class TableAdapter:
    """The game table and a lazily built client: what every DynamoDB adapter of the table starts from."""

    def __init__(self, table_name: str, client: DynamoDBClient | None = None) -> None:
        self.table_name = table_name
        self._client = client

    @property
    def client(self) -> DynamoDBClient:
        if self._client is None:
            self._client = aws_clients.dynamodb()
        return self._client


class DynamoGameStore(TableAdapter):
    """Reads and conditional writes on the game table. Built per invocation; the client is shared."""

    # Players

    @_faults_are_unavailable
    def create_player(self, player: PlayerRecord) -> None:
        try:
            self.client.put_item(
                TableName=self.table_name,
                Item={
                    **_player_key(player.player_id),
                    "name": {"S": player.name},
                    "token_hash": {"S": player.token_hash},
                    "created_at": {"S": player.created_at},
                    **({"token_issued_at": {"S": player.token_issued_at}} if player.token_issued_at else {}),
                },
                ConditionExpression="attribute_not_exists(pk)",
            )
        except ClientError as error:
            if not _is_conditional_failure(error):
                raise
            raise VersionConflict(None) from None

    @_faults_are_unavailable
    def get_player(self, player_id: str) -> PlayerRecord | None:
        item = self.client.get_item(TableName=self.table_name, Key=_player_key(player_id)).get("Item")
        if item is None:
            return None
        issued = item.get("token_issued_at", {}).get("S", "")
        return PlayerRecord(
            player_id, item["name"]["S"], item["token_hash"]["S"], item["created_at"]["S"], issued
        )

    @_faults_are_unavailable
    def replace_token(self, player_id: str, *, old_hash: str, new_hash: str, issued_at: str) -> bool:
        return _written_if_condition_held(
            self.client.update_item,
            TableName=self.table_name,
            Key=_player_key(player_id),
            UpdateExpression="SET token_hash = :new, token_issued_at = :at",
            ConditionExpression="token_hash = :old",
            ExpressionAttributeValues={
                ":new": {"S": new_hash},
                ":at": {"S": issued_at},
                ":old": {"S": old_hash},
            },
        )

    # Games

    @_faults_are_unavailable
    def load_game(self, game_id: str) -> GameRecord | None:
        # Strongly consistent: a move must be judged against the latest state.
        item = self.client.get_item(
            TableName=self.table_name, Key=_game_key(game_id), ConsistentRead=True
        ).get("Item")
        return None if item is None else _game_from_item(item)

    @_faults_are_unavailable
    def create_game(
        self,
        record: GameRecord,
        *,
        answer: StoredAnswer | None = None,
        memberships: Sequence[Membership] = (),
    ) -> None:
        """Write a new game and its host's membership (and a keyed request's answer) in one transaction."""
        host = record.state.host_id
        entry = next((m for m in memberships if m.player_id == host), None)
        items: list[Any] = [
            {
                "Put": {
                    "TableName": self.table_name,
                    "Item": _game_item(record),
                    "ConditionExpression": "attribute_not_exists(pk)",
                }
            },
            {"Put": self._membership_put(host, record, entry)},
        ]
        if answer is not None:
            items.append({"Put": _answer_put(self.table_name, answer, _epoch(record.updated_at))})
        try:
            self.client.transact_write_items(TransactItems=items)
        except ClientError as error:
            if not _is_conditional_failure(error):
                raise
            raise VersionConflict(None) from None

    @_faults_are_unavailable
    def save_game(
        self,
        record: GameRecord,
        *,
        expected_version: int,
        joined: Sequence[str] = (),
        left: Sequence[str] = (),
        finished_round: RoundResult | None = None,
        expected_due_at: int | Literal["unchanged"] | None = "unchanged",
        answer: StoredAnswer | None = None,
        memberships: Sequence[Membership] = (),
    ) -> None:
        """Write the new state only if the stored version is still `expected_version`.

        The due entry must also still be `expected_due_at` (as read; by default the record's own): the
        sweep moves it without a new version, and a move must not put back one it already handled.
        Membership changes and a finished round's reveal go in the same transaction, so the inbox and
        the replay never disagree with the game. Raises VersionConflict when the race was lost.
        """
        values: dict[str, Any] = {":expected": {"N": str(expected_version)}}
        if expected_due_at == "unchanged":
            expected_due_at = record.due_at
        if expected_due_at is None:
            due_condition = "attribute_not_exists(due_at)"
        else:
            due_condition = "due_at = :due"
            values[":due"] = {"N": str(expected_due_at)}
        condition: dict[str, Any] = {
            "ConditionExpression": f"version = :expected AND {due_condition}",
            "ExpressionAttributeValues": values,
        }
        # Only the players this write seats: their entries go in with their membership items. Every
        # later change to an entry comes from the stream (app.games.inbox.refresh), off the move path.
        entries = {m.player_id: m for m in memberships}
        extras: list[dict[str, Any]] = [
            {"Put": self._membership_put(pid, record, entries.get(pid))} for pid in joined
        ]
        extras += [
            {"Delete": {"TableName": self.table_name, "Key": _membership_key(pid, record.game_id)}}
            for pid in left
        ]
        if finished_round is not None:
            extras.append({"Put": self._round_put(record.game_id, finished_round)})
        if answer is not None:
            extras.append({"Put": _answer_put(self.table_name, answer, _epoch(record.updated_at))})
        try:
            if not extras:
                self.client.put_item(
                    TableName=self.table_name,
                    Item=_game_item(record),
                    ReturnValuesOnConditionCheckFailure="ALL_OLD",
                    **condition,
                )
                return
            game_put: dict[str, Any] = {
                "TableName": self.table_name,
                "Item": _game_item(record),
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                **condition,
            }
            items: list[Any] = [{"Put": game_put}, *extras]
            self.client.transact_write_items(TransactItems=items)
        except ClientError as error:
            if not _is_conditional_failure(error):
                raise
            raise VersionConflict(_current_version(error)) from None

    def _membership_put(self, player_id: str, record: GameRecord, entry: Membership | None) -> dict[str, Any]:
        item = {
            **_membership_key(player_id, record.game_id),
            "game_id": {"S": record.game_id},
            "joined_at": {"S": record.updated_at},
        }
        return {
            "TableName": self.table_name,
            "Item": item if entry is None else {**item, **_entry_attributes(entry)},
        }

    def refresh_entries(self, entries: Sequence[Membership]) -> int:
        """Write each entry over an older one: never over a newer one, never for a member who left.

        One conditional UpdateItem per entry (1 WCU: entries stay under 1 KB up to 8 players), outside
        any transaction; a lost condition is the stream replaying or overtaking itself, and is skipped.
        """
        written = 0
        for entry in entries:
            try:
                self.client.update_item(
                    TableName=self.table_name,
                    Key=_membership_key(entry.player_id, entry.game_id),
                    UpdateExpression="SET entry = :entry, entry_version = :version",
                    ConditionExpression=(
                        "attribute_exists(pk) AND "
                        "(attribute_not_exists(entry_version) OR entry_version < :version)"
                    ),
                    ExpressionAttributeValues={
                        ":entry": {"S": entry.to_json()},
                        ":version": {"N": str(entry.version)},
                    },
                )
            except ClientError as error:
                if not _is_conditional_failure(error):
                    raise
                continue
            written += 1
        return written

    def file_finished(self, entries: Sequence[Membership]) -> None:
        """Each finished entry into its player's history, and out of the range the inbox reads.

        Plain writes: a finished game never changes again, so a replay writes the same items.
        """
        requests: list[Any] = []
        for entry in entries:
            requests.append(
                {"PutRequest": {"Item": {**_finished_membership_key(entry), **_entry_attributes(entry)}}}
            )
            requests.append({"DeleteRequest": {"Key": _membership_key(entry.player_id, entry.game_id)}})
        for start in range(0, len(requests), _BATCH_WRITE_LIMIT):
            pending: dict[str, Any] = {self.table_name: requests[start : start + _BATCH_WRITE_LIMIT]}
            while pending:
                response = self.client.batch_write_item(RequestItems=pending)
                pending = dict(response.get("UnprocessedItems") or {})

    def _round_put(self, game_id: str, result: RoundResult) -> dict[str, Any]:
        return {
            "TableName": self.table_name,
            "Item": {
                "pk": {"S": f"GAME#{game_id}"},
                "sk": {"S": f"ROUND#{result.number:04d}"},
                "result": {"S": json.dumps(result.to_dict(), separators=(",", ":"), ensure_ascii=False)},
            },
            "ConditionExpression": "attribute_not_exists(pk)",
        }

    @_faults_are_unavailable
    def game_stamp(self, game_id: str) -> GameStamp | None:
        # A projection costs the same read units as the whole item (DynamoDB bills the item's size), but
        # the game item stays under 4 KB, so this is 1 RCU, and the state is neither sent nor parsed.
        item = self.client.get_item(
            TableName=self.table_name,
            Key=_game_key(game_id),
            ConsistentRead=True,
            ProjectionExpression="version, visibility, members",
        ).get("Item")
        if item is None:
            return None
        members = item.get("members", {}).get("SS", [])
        return GameStamp(int(item["version"]["N"]), Visibility(item["visibility"]["S"]), frozenset(members))

    @_faults_are_unavailable
    def active_memberships(self, player_id: str) -> list[Membership]:
        items = self._query(
            KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
            ExpressionAttributeValues={":pk": {"S": f"PLAYER#{player_id}"}, ":prefix": {"S": "GAME#"}},
        )
        return [m for m in map(_membership_from_item, items) if m is not None]

    @_faults_are_unavailable
    def finished_memberships(
        self, player_id: str, limit: int, after: str | None
    ) -> tuple[list[Membership], str | None]:
        pk = {"S": f"PLAYER#{player_id}"}
        kwargs: dict[str, Any] = {}
        if after is not None:
            kwargs["ExclusiveStartKey"] = {"pk": pk, "sk": {"S": FINISHED_PREFIX + after}}
        response = self.client.query(
            TableName=self.table_name,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
            ExpressionAttributeValues={":pk": pk, ":prefix": {"S": FINISHED_PREFIX}},
            ScanIndexForward=False,
            Limit=limit + 1,  # one more than the page: a next page is promised only when it exists
            **kwargs,
        )
        entries = [m for m in map(_membership_from_item, response.get("Items", [])) if m is not None]
        if len(entries) <= limit:
            return entries, None
        return entries[:limit], finished_key(entries[limit - 1])

    @_faults_are_unavailable
    def get_answer(self, key_id: str, *, now: int) -> StoredAnswer | None:
        item = self.client.get_item(
            TableName=self.table_name,
            Key={"pk": {"S": IDEMPOTENCY_PK}, "sk": {"S": key_id}},
            ConsistentRead=True,
        ).get("Item")
        if item is None or int(item["expires_at"]["N"]) <= now:
            return None
        return StoredAnswer(
            key_id, item["fingerprint"]["S"], bytes(item["answer"]["B"]), int(item["expires_at"]["N"])
        )

    @_faults_are_unavailable
    def put_answer(self, answer: StoredAnswer, *, now: int) -> bool:
        return _written_if_condition_held(self.client.put_item, **_answer_put(self.table_name, answer, now))

    @_faults_are_unavailable
    def list_rounds(self, game_id: str) -> list[RoundResult]:
        rounds: list[RoundResult] = []
        for item in self._query(
            KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
            ExpressionAttributeValues={":pk": {"S": f"GAME#{game_id}"}, ":prefix": {"S": "ROUND#"}},
            ConsistentRead=True,
        ):
            rounds.append(RoundResult.from_dict(json.loads(item["result"]["S"])))
        return rounds

    @_faults_are_unavailable
    def list_open_games(self, limit: int) -> list[GameRecord]:
        response = self.client.query(
            TableName=self.table_name,
            IndexName=INDEX,
            KeyConditionExpression="gsi1pk = :lobby",
            ExpressionAttributeValues={":lobby": {"S": LOBBY}},
            ScanIndexForward=False,
            Limit=limit,
        )
        # Keys only: a join rewrites the lobby item without touching the index. Newest first, as listed.
        game_ids = [item["pk"]["S"].removeprefix("GAME#") for item in response.get("Items", [])]
        found = {record.game_id: record for record in self._batch_get_games(game_ids)}
        return [found[g] for g in game_ids if g in found]

    @_faults_are_unavailable
    def games_of(self, player_id: str) -> list[GameRecord]:
        game_ids = [
            item["game_id"]["S"]
            for item in self._query(
                KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
                ExpressionAttributeValues={":pk": {"S": f"PLAYER#{player_id}"}, ":prefix": {"S": "GAME#"}},
            )
        ]
        return self._batch_get_games(game_ids)

    @_faults_are_unavailable
    def due_page(
        self, shard: str, now: int, *, limit: int, start: dict[str, Any] | None = None
    ) -> tuple[list[tuple[str, int]], dict[str, Any] | None]:
        """One page of (game id, due_at) at or before `now` in one shard, and where the next page starts."""
        kwargs: dict[str, Any] = {"ExclusiveStartKey": start} if start else {}
        response = self.client.query(
            TableName=self.table_name,
            IndexName=DUE_INDEX,
            KeyConditionExpression="due_shard = :shard AND due_at <= :now",
            ExpressionAttributeValues={":shard": {"S": shard}, ":now": {"N": str(now)}},
            Limit=limit,
            **kwargs,
        )
        entries = [
            (item["pk"]["S"].removeprefix("GAME#"), int(item["due_at"]["N"]))
            for item in response.get("Items", [])
        ]
        return entries, response.get("LastEvaluatedKey")

    @_faults_are_unavailable
    def set_due(self, game_id: str, *, version: int, expected: int, due_at: int | None) -> bool:
        """Move (or drop) a game's due entry unless a move got there first (False then)."""
        values: dict[str, Any] = {":version": {"N": str(version)}, ":expected": {"N": str(expected)}}
        if due_at is None:
            update = "REMOVE due_at, due_shard"
        else:
            update = "SET due_at = :due, due_shard = :shard"
            values[":due"] = {"N": str(due_at)}
            values[":shard"] = {"S": shard_of(game_id)}
        return _written_if_condition_held(
            self.client.update_item,
            TableName=self.table_name,
            Key=_game_key(game_id),
            UpdateExpression=update,
            ConditionExpression="version = :version AND due_at = :expected",
            ExpressionAttributeValues=values,
        )

    def _query(self, **kwargs: Any) -> Iterable[dict[str, Any]]:
        paginator = self.client.get_paginator("query")
        for page in paginator.paginate(TableName=self.table_name, **kwargs):
            yield from page.get("Items", [])

    def _batch_get_games(self, game_ids: list[str]) -> list[GameRecord]:
        records: list[GameRecord] = []
        for start in range(0, len(game_ids), _BATCH_GET_LIMIT):
            pending: dict[str, Any] = {
                self.table_name: {"Keys": [_game_key(g) for g in game_ids[start : start + _BATCH_GET_LIMIT]]}
            }
            while pending:
                response = self.client.batch_get_item(RequestItems=pending)
                records += [
                    _game_from_item(item) for item in response.get("Responses", {}).get(self.table_name, [])
                ]
                pending = dict(response.get("UnprocessedKeys") or {})
        return records

    # Webhooks (a player's subscriptions live under the player; attempts under the webhook)

    @_faults_are_unavailable
    def create_webhook(self, record: WebhookRecord, *, max_per_player: int) -> bool:
        """Add a webhook unless the player already has `max_per_player`; False when at the limit.

        The count sits on the player's profile and moves in the same transaction, so two concurrent
        registrations cannot both take the last slot.
        """
        items: list[Any] = [
            {
                "Update": {
                    "TableName": self.table_name,
                    "Key": _player_key(record.player_id),
                    "UpdateExpression": "SET webhook_count = if_not_exists(webhook_count, :zero) + :one",
                    "ConditionExpression": "attribute_exists(pk) AND "
                    "(attribute_not_exists(webhook_count) OR webhook_count < :max)",
                    "ExpressionAttributeValues": {
                        ":zero": {"N": "0"},
                        ":one": {"N": "1"},
                        ":max": {"N": str(max_per_player)},
                    },
                }
            },
            {
                "Put": {
                    "TableName": self.table_name,
                    "Item": webhook_item(record),
                    "ConditionExpression": "attribute_not_exists(pk)",
                }
            },
        ]
        return _written_if_condition_held(self.client.transact_write_items, TransactItems=items)

    @_faults_are_unavailable
    def list_webhooks(self, player_id: str) -> list[WebhookRecord]:
        return [
            webhook_from_item(item)
            for item in self._query(
                KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
                ExpressionAttributeValues={":pk": {"S": f"PLAYER#{player_id}"}, ":prefix": {"S": "WEBHOOK#"}},
                ConsistentRead=True,
            )
        ]

    @_faults_are_unavailable
    def get_webhook(self, player_id: str, webhook_id: str) -> WebhookRecord | None:
        item = self.client.get_item(
            TableName=self.table_name, Key=webhook_key(player_id, webhook_id), ConsistentRead=True
        ).get("Item")
        return None if item is None else webhook_from_item(item)

    @_faults_are_unavailable
    def delete_webhook(self, player_id: str, webhook_id: str) -> bool:
        """Remove a webhook and free its slot; False when there was no such webhook."""
        items: list[Any] = [
            {
                "Delete": {
                    "TableName": self.table_name,
                    "Key": webhook_key(player_id, webhook_id),
                    "ConditionExpression": "attribute_exists(pk)",
                }
            },
            {
                "Update": {
                    "TableName": self.table_name,
                    "Key": _player_key(player_id),
                    "UpdateExpression": "SET webhook_count = webhook_count - :one",
                    "ConditionExpression": "webhook_count > :zero",
                    "ExpressionAttributeValues": {":zero": {"N": "0"}, ":one": {"N": "1"}},
                }
            },
        ]
        return _written_if_condition_held(self.client.transact_write_items, TransactItems=items)

    @_faults_are_unavailable
    def set_webhook_secret(self, player_id: str, webhook_id: str, secret: str) -> bool:
        return _written_if_condition_held(
            self.client.update_item,
            TableName=self.table_name,
            Key=webhook_key(player_id, webhook_id),
            UpdateExpression="SET secret = :secret",
            ConditionExpression="attribute_exists(pk)",
            ExpressionAttributeValues={":secret": {"S": secret}},
        )

    @_faults_are_unavailable
    def record_webhook_result(
        self, player_id: str, webhook_id: str, *, ok: bool, status: str, at: str, disable_after: int
    ) -> WebhookRecord | None:
        """Note a delivery's result on the webhook's health; the webhook as it now is (None if deleted).

        The failure count and the disabling are one conditional update each, so concurrent deliveries
        of the same webhook neither lose a failure nor disable it twice.
        """
        key = webhook_key(player_id, webhook_id)
        values: dict[str, Any] = {":at": {"S": at}, ":status": {"S": status}}
        if ok:
            expression = "SET consecutive_failures = :zero, last_delivery_at = :at, last_status = :status"
            values[":zero"] = {"N": "0"}
        else:
            expression = "SET last_delivery_at = :at, last_status = :status ADD consecutive_failures :one"
            values[":one"] = {"N": "1"}
        try:
            item = self.client.update_item(
                TableName=self.table_name,
                Key=key,
                UpdateExpression=expression,
                ConditionExpression="attribute_exists(pk)",
                ExpressionAttributeValues=values,
                ReturnValues="ALL_NEW",
            )["Attributes"]
        except ClientError as error:
            if _is_conditional_failure(error):
                return None
            raise
        record = webhook_from_item(item)
        if ok or record.disabled or record.consecutive_failures < disable_after:
            return record
        try:
            item = self.client.update_item(
                TableName=self.table_name,
                Key=key,
                UpdateExpression="SET disabled = :yes, disabled_at = :at",
                ConditionExpression="attribute_exists(pk) AND disabled = :no",
                ExpressionAttributeValues={":yes": {"BOOL": True}, ":no": {"BOOL": False}, ":at": {"S": at}},
                ReturnValues="ALL_NEW",
            )["Attributes"]
        except ClientError as error:
            if not _is_conditional_failure(error):
                raise
            return self.get_webhook(player_id, webhook_id)
        return webhook_from_item(item)

    @_faults_are_unavailable
    def put_delivery_attempt(self, attempt: DeliveryAttempt, *, expires_at: int) -> None:
        self.client.put_item(TableName=self.table_name, Item=attempt_item(attempt, expires_at))

    @_faults_are_unavailable
    def list_delivery_attempts(self, webhook_id: str, limit: int) -> list[DeliveryAttempt]:
        response = self.client.query(
            TableName=self.table_name,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
            ExpressionAttributeValues={":pk": {"S": f"WEBHOOK#{webhook_id}"}, ":prefix": {"S": "ATTEMPT#"}},
            ScanIndexForward=False,
            Limit=limit,
        )
        return [attempt_from_item(item) for item in response.get("Items", [])]

    # The event feed: pk GAME#<game_id>, sk FEED#<player_id>#<position>

    @_faults_are_unavailable
    def put_feed_items(self, items: Sequence[FeedItem], *, expires_at: int | None) -> None:
        for start in range(0, len(items), 25):
            requests: list[Any] = [
                {"PutRequest": {"Item": _feed_item(item, expires_at)}} for item in items[start : start + 25]
            ]
            pending: dict[str, Any] = {self.table_name: requests}
            while pending:
                response = self.client.batch_write_item(RequestItems=pending)
                pending = dict(response.get("UnprocessedItems") or {})

    @_faults_are_unavailable
    def expire_feed(self, game_id: str, *, expires_at: int) -> None:
        for item in self._query(
            KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
            ExpressionAttributeValues={":pk": {"S": f"GAME#{game_id}"}, ":prefix": {"S": "FEED#"}},
            ProjectionExpression="pk, sk",
        ):
            self.client.update_item(
                TableName=self.table_name,
                Key={"pk": item["pk"], "sk": item["sk"]},
                UpdateExpression="SET expires_at = :at",
                ExpressionAttributeValues={":at": {"N": str(expires_at)}},
            )

    @_faults_are_unavailable
    def list_feed(self, game_id: str, player_id: str, *, after: str, limit: int) -> list[FeedItem]:
        prefix = f"FEED#{player_id}#"
        response = self.client.query(
            TableName=self.table_name,
            KeyConditionExpression="pk = :pk AND sk BETWEEN :after AND :end",
            ExpressionAttributeValues={
                ":pk": {"S": f"GAME#{game_id}"},
                # Positions are digits and dots, so "~" sorts after every one of them.
                ":after": {"S": f"{prefix}{after}~" if after else prefix},
                ":end": {"S": f"{prefix}~"},
            },
            Limit=limit,
        )
        return [
            FeedItem(
                game_id=game_id,
                player_id=player_id,
                position=item["sk"]["S"].removeprefix(prefix),
                event_json=item["event"]["S"],
            )
            for item in response.get("Items", [])
        ]


def _feed_item(item: FeedItem, expires_at: int | None) -> dict[str, Any]:
    stored: dict[str, Any] = {
        "pk": {"S": f"GAME#{item.game_id}"},
        "sk": {"S": f"FEED#{item.player_id}#{item.position}"},
        "event": {"S": item.event_json},
    }
    if expires_at is not None:
        stored["expires_at"] = {"N": str(expires_at)}
    return stored


def _epoch(iso: str) -> int:
    return int(datetime.fromisoformat(iso).timestamp())


def _current_version(error: ClientError) -> int | None:
    response: dict[str, Any] = dict(error.response)
    if "Item" in response:
        return _version_in(response["Item"])
    for reason in response.get("CancellationReasons", []) or []:
        if reason.get("Code") == "ConditionalCheckFailed":
            return _version_in(reason.get("Item"))
    return None
