"""Game items and what is written with them: memberships, an idempotent answer, the public-lobby and
due indexes; and the round history the stream consumer writes (layout in docs/architecture.md).

Storage only: what to write (the due entry, a reveal the item must carry) is the games feature's to
decide, and comes in as plain values (`GameRecord.due_at`, `GameWrite.carried_round`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from botocore.exceptions import ClientError

from app.aws.dynamodb.items import (
    DUE_INDEX,
    IDEMPOTENCY_PK,
    INDEX,
    LOBBY,
    answer_put,
    current_version,
    epoch,
    game_from_item,
    game_item,
    game_key,
    membership_key,
    membership_put,
    round_put,
)
from app.aws.dynamodb.table import TableAdapter, is_conditional_failure, written_if_condition_held
from app.core.errors import VersionConflict
from app.core.records import GameRecord, GameStamp, Membership, StoredAnswer, Visibility
from app.games import state_codec
from app.games.keys import due_shard
from app.games.ports import GameWrite
from dixit.state import RoundResult


class DynamoGameStore(TableAdapter):
    """Reads and conditional writes on the game table. Built once per environment; the client is shared."""

    def load_game(self, game_id: str) -> GameRecord | None:
        # Strongly consistent: a move must be judged against the latest state.
        item = self.client.get_item(
            TableName=self.table_name, Key=game_key(game_id), ConsistentRead=True
        ).get("Item")
        return None if item is None else game_from_item(item)

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
                    "Item": game_item(record),
                    "ConditionExpression": "attribute_not_exists(pk)",
                }
            },
            {"Put": membership_put(self.table_name, host, record, entry)},
        ]
        if answer is not None:
            items.append({"Put": answer_put(self.table_name, answer, epoch(record.updated_at))})
        try:
            self.client.transact_write_items(TransactItems=items)
        except ClientError as error:
            if not is_conditional_failure(error):
                raise
            raise VersionConflict(None) from None

    def save_game(self, write: GameWrite) -> None:
        """Write the new state only if the stored version is still the one the move was judged on.

        Membership changes go in the same transaction, so the inbox never disagrees with the game. A
        scored round does not: the stream consumer writes its history item (app.games.history), so a
        scoring vote is one put like any move. Raises VersionConflict when the race was lost.
        """
        record = write.record
        expected_due_at = write.due_condition
        values: dict[str, Any] = {":expected": {"N": str(write.expected_version)}}
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
        entries = {m.player_id: m for m in write.memberships}
        extras: list[dict[str, Any]] = [
            {"Put": membership_put(self.table_name, pid, record, entries.get(pid))} for pid in write.joined
        ]
        extras += [
            {"Delete": {"TableName": self.table_name, "Key": membership_key(pid, record.game_id)}}
            for pid in write.left
        ]
        if write.answer is not None:
            extras.append({"Put": answer_put(self.table_name, write.answer, epoch(record.updated_at))})
        item = game_item(record, write.carried_round)
        try:
            if not extras:
                self.client.put_item(
                    TableName=self.table_name,
                    Item=item,
                    ReturnValuesOnConditionCheckFailure="ALL_OLD",
                    **condition,
                )
                return
            game_put: dict[str, Any] = {
                "TableName": self.table_name,
                "Item": item,
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                **condition,
            }
            items: list[Any] = [{"Put": game_put}, *extras]
            self.client.transact_write_items(TransactItems=items)
        except ClientError as error:
            if not is_conditional_failure(error):
                raise
            raise VersionConflict(current_version(error)) from None

    def game_stamp(self, game_id: str) -> GameStamp | None:
        # A projection costs the same read units as the whole item (DynamoDB bills the item's size), but
        # the game item stays under 4 KB, so this is 1 RCU, and the state is neither sent nor parsed.
        item = self.client.get_item(
            TableName=self.table_name,
            Key=game_key(game_id),
            ConsistentRead=True,
            ProjectionExpression="version, visibility, members",
        ).get("Item")
        if item is None:
            return None
        members = item.get("members", {}).get("SS", [])
        return GameStamp(int(item["version"]["N"]), Visibility(item["visibility"]["S"]), frozenset(members))

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

    def put_answer(self, answer: StoredAnswer, *, now: int) -> bool:
        return written_if_condition_held(self.client.put_item, **answer_put(self.table_name, answer, now))

    def list_rounds(self, game_id: str) -> list[RoundResult]:
        rounds: list[RoundResult] = []
        for item in self.query_all(
            KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
            ExpressionAttributeValues={":pk": {"S": f"GAME#{game_id}"}, ":prefix": {"S": "ROUND#"}},
            ConsistentRead=True,
        ):
            rounds.append(state_codec.round_from_json(item["result"]["S"]))
        return rounds

    def put_round(self, game_id: str, result: RoundResult) -> None:
        self.client.put_item(**round_put(self.table_name, game_id, result))

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

    def set_due(self, game_id: str, *, version: int, expected: int, due_at: int | None) -> bool:
        """Move (or drop) a game's due entry unless a move got there first (False then)."""
        values: dict[str, Any] = {":version": {"N": str(version)}, ":expected": {"N": str(expected)}}
        if due_at is None:
            update = "REMOVE due_at, due_shard"
        else:
            update = "SET due_at = :due, due_shard = :shard"
            values[":due"] = {"N": str(due_at)}
            values[":shard"] = {"S": due_shard(game_id)}
        return written_if_condition_held(
            self.client.update_item,
            TableName=self.table_name,
            Key=game_key(game_id),
            UpdateExpression=update,
            ConditionExpression="version = :version AND due_at = :expected",
            ExpressionAttributeValues=values,
        )

    def _batch_get_games(self, game_ids: list[str]) -> list[GameRecord]:
        return [game_from_item(item) for item in self.batch_get([game_key(g) for g in game_ids])]
