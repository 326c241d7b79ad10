"""Apps' grants (`PLAYER#<id>` / `APP#<gid>`), the newest code given to each app (`PLAYER#<id>` /
`APPCODE#<gid>`) and OAuth codes (`OAUTHCODE#<code hash>` / `CODE`).

A grant lives in the player's partition, so erasing the account deletes it with the rest; it is written
only while the profile exists and only from the code noted as the app's newest (one transaction: the
grant put, a condition check on the profile, the note deleted if it still names the code), and revoked
with that note (one transaction), so no code given before a newer consent or a revocation makes the grant
again. The note expires (TTL) with its code. A code lives under its own hash,
expires by TTL within minutes, and is taken by a conditional delete that answers the item it deleted:
exactly one request gets it.
"""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from app.aws.dynamodb.credential_items import items_of_kind, with_profile
from app.aws.dynamodb.items import player_key
from app.aws.dynamodb.table import TableAdapter, is_conditional_failure, written_if_condition_held
from app.core.records import PlayerRecord
from app.oauth.ports import AuthorizationCode
from app.players.ports import AppGrantRecord

ITEM_PREFIX = "APP#"
NOTE_PREFIX = "APPCODE#"  # not under ITEM_PREFIX: listing the grants never meets a note


def grant_key(player_id: str, grant_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"PLAYER#{player_id}"}, "sk": {"S": ITEM_PREFIX + grant_id}}


def note_key(player_id: str, grant_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"PLAYER#{player_id}"}, "sk": {"S": NOTE_PREFIX + grant_id}}


def _strings(values: tuple[str, ...]) -> dict[str, Any]:
    # Lists, not string sets: they keep their order (scopes as shown, rotated hashes oldest first).
    return {"L": [{"S": value} for value in values]}


def _tokens(grant: AppGrantRecord) -> dict[str, Any]:
    return {
        "access_hash": {"S": grant.access_hash},
        "access_expires_at": {"N": str(grant.access_expires_at)},
        "refresh_hash": {"S": grant.refresh_hash},
        "rotated": _strings(grant.rotated),
    }


def grant_from_item(item: dict[str, Any]) -> AppGrantRecord:
    return AppGrantRecord(
        item["pk"]["S"].removeprefix("PLAYER#"),
        item["sk"]["S"].removeprefix(ITEM_PREFIX),
        item["client_id"]["S"],
        tuple(scope["S"] for scope in item["scopes"]["L"]),
        item["redirect_uri"]["S"],
        item["created_at"]["S"],
        item["access_hash"]["S"],
        int(item["access_expires_at"]["N"]),
        item["refresh_hash"]["S"],
        tuple(old["S"] for old in item.get("rotated", {}).get("L", [])),
        item.get("last_used_at", {}).get("S", ""),
    )


class DynamoAppGrantStore(TableAdapter):
    def note_app_code(self, player_id: str, grant_id: str, code_hash: str, expires_at: int) -> None:
        self.client.put_item(
            TableName=self.table_name,
            Item={
                **note_key(player_id, grant_id),
                "code_hash": {"S": code_hash},
                "expires_at": {"N": str(expires_at)},
            },
        )

    def put_app_grant(self, grant: AppGrantRecord, *, code_hash: str | None = None) -> bool:
        put: dict[str, Any] = {
            "Put": {
                "TableName": self.table_name,
                "Item": {
                    **grant_key(grant.player_id, grant.grant_id),
                    "client_id": {"S": grant.client_id},
                    "scopes": _strings(grant.scopes),
                    "redirect_uri": {"S": grant.redirect_uri},
                    "created_at": {"S": grant.created_at},
                    **_tokens(grant),
                },
            }
        }
        profile: dict[str, Any] = {
            "ConditionCheck": {
                "TableName": self.table_name,
                "Key": player_key(grant.player_id),
                "ConditionExpression": "attribute_exists(pk)",
            }
        }
        items = [put, profile]
        if code_hash is not None:  # only from the app's newest code, using its note up
            note = {
                "TableName": self.table_name,
                "Key": note_key(grant.player_id, grant.grant_id),
                "ConditionExpression": "code_hash = :code",
                "ExpressionAttributeValues": {":code": {"S": code_hash}},
            }
            items.append({"Delete": note})
        return written_if_condition_held(self.client.transact_write_items, TransactItems=items)

    def app_grant(self, player_id: str, grant_id: str) -> tuple[PlayerRecord | None, AppGrantRecord | None]:
        profile, item = with_profile(self, player_id, grant_key(player_id, grant_id))
        return profile, (None if item is None else grant_from_item(item))

    def list_app_grants(self, player_id: str) -> list[AppGrantRecord]:
        items = items_of_kind(self, player_id, ITEM_PREFIX)
        return sorted(map(grant_from_item, items), key=lambda g: (g.created_at, g.grant_id))

    def rotate_app_grant(self, old: AppGrantRecord, new: AppGrantRecord) -> bool:
        tokens = _tokens(new)
        return self.conditional_update(
            grant_key(old.player_id, old.grant_id),
            UpdateExpression=(
                "SET access_hash = :access_hash, access_expires_at = :access_expires_at, "
                "refresh_hash = :refresh_hash, rotated = :rotated"
            ),
            ConditionExpression="refresh_hash = :old",
            ExpressionAttributeValues={
                **{f":{name}": value for name, value in tokens.items()},
                ":old": {"S": old.refresh_hash},
            },
        )

    def delete_app_grant(self, player_id: str, grant_id: str) -> bool:
        grant: dict[str, Any] = {
            "Delete": {
                "TableName": self.table_name,
                "Key": grant_key(player_id, grant_id),
                "ConditionExpression": "attribute_exists(pk)",
            }
        }
        note: dict[str, Any] = {
            "Delete": {"TableName": self.table_name, "Key": note_key(player_id, grant_id)}
        }
        return written_if_condition_held(self.client.transact_write_items, TransactItems=[grant, note])

    def touch_app_grant(self, player_id: str, grant_id: str, *, used_at: str, older_than: str) -> None:
        self.conditional_update(
            grant_key(player_id, grant_id),
            UpdateExpression="SET last_used_at = :now",
            ConditionExpression=(
                "attribute_exists(pk) AND (attribute_not_exists(last_used_at) OR last_used_at < :cutoff)"
            ),
            ExpressionAttributeValues={":now": {"S": used_at}, ":cutoff": {"S": older_than}},
        )


def code_key(code_hash: str) -> dict[str, Any]:
    return {"pk": {"S": f"OAUTHCODE#{code_hash}"}, "sk": {"S": "CODE"}}


class DynamoCodeStore(TableAdapter):
    def put_code(self, code: AuthorizationCode) -> None:
        self.client.put_item(
            TableName=self.table_name,
            Item={
                **code_key(code.code_hash),
                "player_id": {"S": code.player_id},
                "client_id": {"S": code.client_id},
                "redirect_uri": {"S": code.redirect_uri},
                "scopes": _strings(code.scopes),
                "code_challenge": {"S": code.code_challenge},
                "expires_at": {"N": str(code.expires_at)},
            },
        )

    def take_code(self, code_hash: str) -> AuthorizationCode | None:
        try:
            answer = self.client.delete_item(
                TableName=self.table_name,
                Key=code_key(code_hash),
                ConditionExpression="attribute_exists(pk)",
                ReturnValues="ALL_OLD",
            )
        except ClientError as error:
            if is_conditional_failure(error):
                return None
            raise
        item = answer.get("Attributes")
        if not item:
            return None
        return AuthorizationCode(
            code_hash,
            item["player_id"]["S"],
            item["client_id"]["S"],
            item["redirect_uri"]["S"],
            tuple(scope["S"] for scope in item["scopes"]["L"]),
            item["code_challenge"]["S"],
            int(item["expires_at"]["N"]),
        )
