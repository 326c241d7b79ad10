"""Inbox entries: a player's `PLAYER#<id>` / `GAME#<game>` memberships, and their finished history."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from botocore.exceptions import ClientError

from app.aws.dynamodb.items import (
    entry_attributes,
    finished_membership_key,
    membership_from_item,
    membership_key,
)
from app.aws.dynamodb.table import TableAdapter, is_conditional_failure
from app.core.records import Membership
from app.games.keys import FINISHED_PREFIX, finished_key


class DynamoInboxStore(TableAdapter):
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
                    Key=membership_key(entry.player_id, entry.game_id),
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
                if not is_conditional_failure(error):
                    raise
                continue
            written += 1
        return written

    def file_finished(self, entries: Sequence[Membership]) -> None:
        """Each finished entry into its player's history, and out of the range the inbox reads.

        Plain writes: a finished game never changes again, so a replay writes the same items. Only
        for members whose membership is still there (one read first): a deleted account's seat stays
        in the game, and its history must not come back.
        """
        keys = [membership_key(e.player_id, e.game_id) for e in entries]
        present = (
            {item["pk"]["S"].removeprefix("PLAYER#") for item in self.batch_get(keys)} if keys else set()
        )
        requests: list[Any] = []
        for entry in entries:
            if entry.player_id not in present:
                continue
            requests.append(
                {"PutRequest": {"Item": {**finished_membership_key(entry), **entry_attributes(entry)}}}
            )
            requests.append({"DeleteRequest": {"Key": membership_key(entry.player_id, entry.game_id)}})
        self.batch_write(requests)

    def active_memberships(self, player_id: str) -> list[Membership]:
        items = self.query_all(
            KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
            ExpressionAttributeValues={":pk": {"S": f"PLAYER#{player_id}"}, ":prefix": {"S": "GAME#"}},
        )
        return [m for m in map(membership_from_item, items) if m is not None]

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
        entries = [m for m in map(membership_from_item, response.get("Items", [])) if m is not None]
        if len(entries) <= limit:
            return entries, None
        return entries[:limit], finished_key(entries[limit - 1])
