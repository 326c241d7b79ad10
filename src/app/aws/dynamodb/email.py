"""Email addresses in the game table (layout: docs/architecture.md).

- `EMAIL#<address id>` / `OWNER`: `player_id` — who confirmed the address (at most one).
- `PLAYER#<id>` / `EMAIL_CODE`: `email`, `code_hash`, `attempts`, `expires_at` (TTL) — the code that
  confirms the address the player is attaching (the profile notes it as `pending_email`).
- `SIGNIN#<address id>` / `CODE`: `code_hash`, `attempts`, `expires_at` (TTL) — the address's sign-in code.
- `LIMIT#<scope>#<key>` / `W#<window>`: `hits`, `expires_at` (TTL) — one hour's requests of one key.

An address id is a hash of the normalized address: only the profile holds an address itself.
"""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from app.aws.dynamodb.items import player_key
from app.aws.dynamodb.table import TableAdapter, is_conditional_failure, written_if_condition_held
from app.players.ports import CodeKey, Confirmed, PendingCode

VERIFY_SK = "EMAIL_CODE"


def owner_key(address: str) -> dict[str, Any]:
    return {"pk": {"S": f"EMAIL#{address}"}, "sk": {"S": "OWNER"}}


def verification_key(player_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"PLAYER#{player_id}"}, "sk": {"S": VERIFY_SK}}


def sign_in_key(address: str) -> dict[str, Any]:
    return {"pk": {"S": f"SIGNIN#{address}"}, "sk": {"S": "CODE"}}


def _code_key(key: CodeKey) -> dict[str, Any]:
    return verification_key(key.owner) if key.kind == "verify" else sign_in_key(key.owner)


def _code_attributes(pending: PendingCode) -> dict[str, Any]:
    return {
        "code_hash": {"S": pending.code_hash},
        "attempts": {"N": str(pending.attempts)},
        "expires_at": {"N": str(pending.expires_at)},
    }


def _code_from(item: dict[str, Any] | None) -> PendingCode | None:
    if item is None:
        return None
    return PendingCode(
        code_hash=item["code_hash"]["S"],
        expires_at=int(item["expires_at"]["N"]),
        attempts=int(item.get("attempts", {}).get("N", "0")),
        email=item.get("email", {}).get("S", ""),
    )


class DynamoEmailStore(TableAdapter):
    # Attaching an address

    def start_verification(self, player_id: str, pending: PendingCode) -> bool:
        return written_if_condition_held(
            self.client.transact_write_items,
            TransactItems=[
                {
                    "Update": {
                        "TableName": self.table_name,
                        "Key": player_key(player_id),
                        "UpdateExpression": "SET pending_email = :email",
                        "ConditionExpression": "attribute_exists(pk)",
                        "ExpressionAttributeValues": {":email": {"S": pending.email}},
                    }
                },
                {
                    "Put": {
                        "TableName": self.table_name,
                        "Item": {
                            **verification_key(player_id),
                            "email": {"S": pending.email},
                            **_code_attributes(pending),
                        },
                    }
                },
            ],
        )

    def verification(self, player_id: str) -> PendingCode | None:
        item = self.client.get_item(
            TableName=self.table_name, Key=verification_key(player_id), ConsistentRead=True
        ).get("Item")
        return _code_from(item)

    def confirm_email(
        self, player_id: str, pending: PendingCode, *, address: str, previous: str, max_attempts: int
    ) -> Confirmed:
        me = {":me": {"S": player_id}}
        items: list[Any] = [
            {
                # Used once: only the request whose delete finds the code still there confirms.
                "Delete": {
                    "TableName": self.table_name,
                    "Key": verification_key(player_id),
                    "ConditionExpression": "code_hash = :hash AND attempts < :max",
                    "ExpressionAttributeValues": {
                        ":hash": {"S": pending.code_hash},
                        ":max": {"N": str(max_attempts)},
                    },
                }
            },
            {
                "Put": {
                    "TableName": self.table_name,
                    "Item": {**owner_key(address), "player_id": {"S": player_id}},
                    "ConditionExpression": "attribute_not_exists(pk) OR player_id = :me",
                    "ExpressionAttributeValues": me,
                }
            },
            {
                "Update": {
                    "TableName": self.table_name,
                    "Key": player_key(player_id),
                    "UpdateExpression": "SET email = :email REMOVE pending_email",
                    "ConditionExpression": "attribute_exists(pk)",
                    "ExpressionAttributeValues": {":email": {"S": pending.email}},
                }
            },
        ]
        if previous:
            items.append(
                {
                    "Delete": {
                        "TableName": self.table_name,
                        "Key": owner_key(previous),
                        "ConditionExpression": "attribute_not_exists(pk) OR player_id = :me",
                        "ExpressionAttributeValues": me,
                    }
                }
            )
        try:
            self.client.transact_write_items(TransactItems=items)
        except ClientError as error:
            if not is_conditional_failure(error):
                raise
            reasons = error.response.get("CancellationReasons") or []
            failed = [i for i, reason in enumerate(reasons) if reason.get("Code") == "ConditionalCheckFailed"]
            return Confirmed.TAKEN if failed and failed[0] == 1 else Confirmed.GONE
        return Confirmed.DONE

    def owner_of(self, address: str) -> str | None:
        item = self.client.get_item(
            TableName=self.table_name, Key=owner_key(address), ConsistentRead=True
        ).get("Item")
        return None if item is None else str(item["player_id"]["S"])

    # Signing in

    def put_sign_in_code(self, address: str, pending: PendingCode) -> None:
        self.client.put_item(
            TableName=self.table_name, Item={**sign_in_key(address), **_code_attributes(pending)}
        )

    def sign_in_code(self, address: str) -> PendingCode | None:
        item = self.client.get_item(
            TableName=self.table_name, Key=sign_in_key(address), ConsistentRead=True
        ).get("Item")
        return _code_from(item)

    def use_sign_in_code(self, address: str, code_hash: str, *, now: int, max_attempts: int) -> bool:
        return self.conditional_delete(
            sign_in_key(address),
            ConditionExpression="code_hash = :hash AND attempts < :max AND expires_at > :now",
            ExpressionAttributeValues={
                ":hash": {"S": code_hash},
                ":max": {"N": str(max_attempts)},
                ":now": {"N": str(now)},
            },
        )

    def count_wrong_code(self, key: CodeKey, code_hash: str, *, max_attempts: int) -> None:
        # A lost race (the code replaced, or worn out already) leaves it as it is.
        self.conditional_update(
            _code_key(key),
            UpdateExpression="ADD attempts :one",
            ConditionExpression="code_hash = :hash AND attempts < :max",
            ExpressionAttributeValues={
                ":one": {"N": "1"},
                ":hash": {"S": code_hash},
                ":max": {"N": str(max_attempts)},
            },
        )

    # Limits: one conditional write each, so concurrent requests cannot both take the last slot.

    def claim_slot(self, scope: str, key: str, *, window: int, limit: int, expires_at: int) -> bool:
        return self.conditional_update(
            {"pk": {"S": f"LIMIT#{scope}#{key}"}, "sk": {"S": f"W#{window}"}},
            UpdateExpression="SET expires_at = :expires ADD hits :one",
            ConditionExpression="attribute_not_exists(hits) OR hits < :limit",
            ExpressionAttributeValues={
                ":one": {"N": "1"},
                ":limit": {"N": str(limit)},
                ":expires": {"N": str(expires_at)},
            },
        )
