"""Personal tokens: `PLAYER#<id>` / `PTOKEN#<tid>`, each with the hash of its secret, beside the sessions.

The profile counts them (`personal_tokens`): a token is made and counted, or revoked and counted off, in
one transaction, so the cap holds however many requests race, and nothing is made for a profile that is
gone. Erasing the account deletes the items with the rest of the partition (and the count with the
profile).
"""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from app.aws.dynamodb.credential_items import items_of_kind, with_profile
from app.aws.dynamodb.items import player_key
from app.aws.dynamodb.table import TableAdapter, is_conditional_failure, written_if_condition_held
from app.core.errors import VersionConflict
from app.core.records import PlayerRecord
from app.players.ports import PersonalTokenRecord

ITEM_PREFIX = "PTOKEN#"
_COUNT = "personal_tokens"


def token_key(player_id: str, token_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"PLAYER#{player_id}"}, "sk": {"S": ITEM_PREFIX + token_id}}


def token_from_item(item: dict[str, Any]) -> PersonalTokenRecord:
    return PersonalTokenRecord(
        item["pk"]["S"].removeprefix("PLAYER#"),
        item["sk"]["S"].removeprefix(ITEM_PREFIX),
        item["name"]["S"],
        tuple(scope["S"] for scope in item["scopes"]["L"]),
        item["token_hash"]["S"],
        item["created_at"]["S"],
        item.get("last_used_at", {}).get("S", ""),
    )


class DynamoPersonalTokenStore(TableAdapter):
    def create_personal_token(self, token: PersonalTokenRecord, *, limit: int) -> bool:
        key = token_key(token.player_id, token.token_id)
        put: dict[str, Any] = {
            "Put": {
                "TableName": self.table_name,
                "Item": {
                    **key,
                    "name": {"S": token.name},
                    # A list, not a string set: it keeps the order the scopes are shown in.
                    "scopes": {"L": [{"S": scope} for scope in token.scopes]},
                    "token_hash": {"S": token.token_hash},
                    "created_at": {"S": token.created_at},
                },
                "ConditionExpression": "attribute_not_exists(pk)",
            }
        }
        count: dict[str, Any] = {
            "Update": {
                "TableName": self.table_name,
                "Key": player_key(token.player_id),
                "UpdateExpression": f"ADD {_COUNT} :one",
                "ConditionExpression": (
                    f"attribute_exists(pk) AND (attribute_not_exists({_COUNT}) OR {_COUNT} < :limit)"
                ),
                "ExpressionAttributeValues": {":one": {"N": "1"}, ":limit": {"N": str(limit)}},
            }
        }
        try:
            items: list[Any] = [put, count]
            self.client.transact_write_items(TransactItems=items)
        except ClientError as error:
            if not is_conditional_failure(error):
                raise
            reasons = error.response.get("CancellationReasons") or []
            if reasons and reasons[0].get("Code") == "ConditionalCheckFailed":
                raise VersionConflict(None) from None  # the id is taken (or was our own lost write)
            return False
        return True

    def personal_token(
        self, player_id: str, token_id: str
    ) -> tuple[PlayerRecord | None, PersonalTokenRecord | None]:
        profile, item = with_profile(self, player_id, token_key(player_id, token_id))
        return profile, (None if item is None else token_from_item(item))

    def list_personal_tokens(self, player_id: str) -> list[PersonalTokenRecord]:
        items = items_of_kind(self, player_id, ITEM_PREFIX)
        return sorted(map(token_from_item, items), key=lambda t: (t.created_at, t.token_id))

    def delete_personal_token(self, player_id: str, token_id: str) -> bool:
        delete: dict[str, Any] = {
            "Delete": {
                "TableName": self.table_name,
                "Key": token_key(player_id, token_id),
                "ConditionExpression": "attribute_exists(pk)",
            }
        }
        count: dict[str, Any] = {
            "Update": {
                "TableName": self.table_name,
                "Key": player_key(player_id),
                "UpdateExpression": f"ADD {_COUNT} :minus",
                "ConditionExpression": "attribute_exists(pk)",
                "ExpressionAttributeValues": {":minus": {"N": "-1"}},
            }
        }
        return written_if_condition_held(self.client.transact_write_items, TransactItems=[delete, count])

    def touch_personal_token(self, player_id: str, token_id: str, *, used_at: str, older_than: str) -> None:
        # Never creates an item: a token revoked meanwhile stays revoked.
        self.conditional_update(
            token_key(player_id, token_id),
            UpdateExpression="SET last_used_at = :now",
            ConditionExpression=(
                "attribute_exists(pk) AND (attribute_not_exists(last_used_at) OR last_used_at < :cutoff)"
            ),
            ExpressionAttributeValues={":now": {"S": used_at}, ":cutoff": {"S": older_than}},
        )
