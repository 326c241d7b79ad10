"""The email channel's items in the game table: send claims, suppressed addresses, the digest index.

- `PLAYER#<id>` / `MAIL#<slot>`: one claim (`claimed_at`, `dedupe_id`, `sent`), expiring a day after its
  window; erased with the player's partition.
- `MAILSUPPRESS#<sha256 of the address>` / `SUPPRESSED`: an address that bounced or complained.
- `DIGEST#<utc hour>#<shard>` / `PLAYER#<id>`: the digest index, with the player's pointer
  `PLAYER#<id>` / `DIGEST` naming the key they are filed under, so a move out is one transaction.

None has `sk = STATE`, so the stream consumer never sees them.
"""

from __future__ import annotations

import hashlib
from typing import Any

from botocore.exceptions import ClientError

from app.aws.dynamodb.table import TableAdapter, is_conditional_failure
from app.notify.email.digest_schedule import digest_shard
from app.notify.email.ports import DigestEntry

SUPPRESSED_SK = "SUPPRESSED"
DIGEST_SK = "DIGEST"
_DAY = 86_400


def _player_pk(player_id: str) -> dict[str, Any]:
    return {"S": f"PLAYER#{player_id}"}


def address_hash(address: str) -> str:
    return hashlib.sha256(address.strip().lower().encode()).hexdigest()


def digest_pk(utc_hour: int, shard: int) -> str:
    return f"DIGEST#{utc_hour:02d}#{shard}"


class DynamoMailLedger(TableAdapter):
    def _claim_key(self, player_id: str, slot: str) -> dict[str, Any]:
        return {"pk": _player_pk(player_id), "sk": {"S": f"MAIL#{slot}"}}

    def claim_mail(self, player_id: str, slot: str, dedupe_id: str, *, now: int, window_seconds: int) -> bool:
        return self.conditional_update(
            self._claim_key(player_id, slot),
            UpdateExpression="SET claimed_at = :now, dedupe_id = :id, sent = :no, expires_at = :expires",
            ConditionExpression=(
                "attribute_not_exists(claimed_at) OR claimed_at <= :cutoff"
                " OR (dedupe_id = :id AND sent = :no)"
            ),
            ExpressionAttributeValues={
                ":now": {"N": str(now)},
                ":cutoff": {"N": str(now - window_seconds)},
                ":id": {"S": dedupe_id},
                ":no": {"BOOL": False},
                ":expires": {"N": str(now + window_seconds + _DAY)},
            },
        )

    def _settle(self, player_id: str, slot: str, dedupe_id: str, **update: Any) -> None:
        try:
            self.client.update_item(
                TableName=self.table_name,
                Key=self._claim_key(player_id, slot),
                ConditionExpression="dedupe_id = :id AND sent = :no",
                **update,
            )
        except ClientError as error:
            if not is_conditional_failure(error):
                raise

    def mark_mail_sent(self, player_id: str, slot: str, dedupe_id: str) -> None:
        self._settle(
            player_id,
            slot,
            dedupe_id,
            UpdateExpression="SET sent = :yes",
            ExpressionAttributeValues={
                ":id": {"S": dedupe_id},
                ":no": {"BOOL": False},
                ":yes": {"BOOL": True},
            },
        )

    def release_mail(self, player_id: str, slot: str, dedupe_id: str) -> None:
        # Forgetting when it was claimed frees the slot for any mail, this one's retry included.
        self._settle(
            player_id,
            slot,
            dedupe_id,
            UpdateExpression="REMOVE claimed_at",
            ExpressionAttributeValues={":id": {"S": dedupe_id}, ":no": {"BOOL": False}},
        )

    # Suppressed addresses

    def _suppression_key(self, address: str) -> dict[str, Any]:
        return {"pk": {"S": f"MAILSUPPRESS#{address_hash(address)}"}, "sk": {"S": SUPPRESSED_SK}}

    def suppress_address(self, address: str, *, reason: str, at: str) -> None:
        self.client.put_item(
            TableName=self.table_name,
            Item={**self._suppression_key(address), "reason": {"S": reason}, "suppressed_at": {"S": at}},
        )

    def address_suppressed(self, address: str) -> bool:
        found = self.client.get_item(
            TableName=self.table_name, Key=self._suppression_key(address), ProjectionExpression="pk"
        )
        return "Item" in found


class DynamoDigestIndex(TableAdapter):
    def _pointer_key(self, player_id: str) -> dict[str, Any]:
        return {"pk": _player_pk(player_id), "sk": {"S": DIGEST_SK}}

    def _filed_under(self, player_id: str) -> str | None:
        item = self.client.get_item(
            TableName=self.table_name, Key=self._pointer_key(player_id), ConsistentRead=True
        ).get("Item")
        return None if item is None else str(item["filed_under"]["S"])

    def put_digest(self, entry: DigestEntry) -> None:
        pk = digest_pk(entry.utc_hour, digest_shard(entry.player_id))
        previous = self._filed_under(entry.player_id)
        writes: list[dict[str, Any]] = [
            {
                "Put": {
                    "TableName": self.table_name,
                    "Item": {
                        "pk": {"S": pk},
                        "sk": _player_pk(entry.player_id),
                        "player_id": {"S": entry.player_id},
                        "time_zone": {"S": entry.time_zone},
                        "hour": {"N": str(entry.hour)},
                        "utc_hour": {"N": str(entry.utc_hour)},
                    },
                }
            },
            {
                "Put": {
                    "TableName": self.table_name,
                    "Item": {**self._pointer_key(entry.player_id), "filed_under": {"S": pk}},
                }
            },
        ]
        if previous is not None and previous != pk:
            writes.append(
                {
                    "Delete": {
                        "TableName": self.table_name,
                        "Key": {"pk": {"S": previous}, "sk": _player_pk(entry.player_id)},
                    }
                }
            )
        self.client.transact_write_items(TransactItems=writes)  # type: ignore[arg-type]

    def remove_digest(self, player_id: str) -> None:
        previous = self._filed_under(player_id)
        writes: list[dict[str, Any]] = [
            {"Delete": {"TableName": self.table_name, "Key": self._pointer_key(player_id)}}
        ]
        if previous is not None:
            writes.append(
                {
                    "Delete": {
                        "TableName": self.table_name,
                        "Key": {"pk": {"S": previous}, "sk": _player_pk(player_id)},
                    }
                }
            )
        self.client.transact_write_items(TransactItems=writes)  # type: ignore[arg-type]

    def due_digests(self, utc_hour: int, shard: int) -> list[DigestEntry]:
        items = self.query_all(
            KeyConditionExpression="pk = :pk",
            ExpressionAttributeValues={":pk": {"S": digest_pk(utc_hour, shard)}},
        )
        return [
            DigestEntry(
                player_id=item["player_id"]["S"],
                time_zone=item["time_zone"]["S"],
                hour=int(item["hour"]["N"]),
                utc_hour=int(item["utc_hour"]["N"]),
            )
            for item in items
        ]
