"""Sessions: `PLAYER#<id>` / `SESSION#<sid>`, each with the hash of its token, beside the profile.

The legacy session (a token from before sessions) is the profile's own token hash: the same attributes
on `PLAYER#<id>` / `PROFILE`, so a player registered before sessions keeps their token.
"""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from app.aws.dynamodb.items import player_key
from app.aws.dynamodb.table import TableAdapter, is_conditional_failure
from app.core.errors import VersionConflict
from app.core.records import PlayerRecord
from app.players.ports import LEGACY_DEVICE, LEGACY_SESSION, SessionRecord

SESSION_PREFIX = "SESSION#"


def session_key(player_id: str, session_id: str) -> dict[str, Any]:
    if session_id == LEGACY_SESSION:
        return player_key(player_id)
    return {"pk": {"S": f"PLAYER#{player_id}"}, "sk": {"S": SESSION_PREFIX + session_id}}


def profile_from_item(item: dict[str, Any]) -> PlayerRecord:
    return PlayerRecord(
        item["pk"]["S"].removeprefix("PLAYER#"),
        item["name"]["S"],
        item.get("token_hash", {}).get("S", ""),
        item["created_at"]["S"],
        item.get("token_issued_at", {}).get("S", ""),
        item.get("email", {}).get("S", ""),
        item.get("pending_email", {}).get("S", ""),
        int(item["expires_at"]["N"]) if "expires_at" in item else None,
    )


def _text(item: dict[str, Any], name: str) -> str:
    return str(item.get(name, {}).get("S", ""))


def session_from_item(item: dict[str, Any]) -> SessionRecord | None:
    player_id = item["pk"]["S"].removeprefix("PLAYER#")
    if item["sk"]["S"] == "PROFILE":
        profile = profile_from_item(item)
        if not profile.token_hash:
            return None  # revoked, or a player registered with sessions
        issued = profile.token_issued
        return SessionRecord(
            player_id,
            LEGACY_SESSION,
            LEGACY_DEVICE,
            profile.token_hash,
            profile.created_at,
            _text(item, "last_used_at") or issued,
            issued,
            _text(item, "previous_hash"),
            _text(item, "rotated_under"),
        )
    return SessionRecord(
        player_id,
        item["sk"]["S"].removeprefix(SESSION_PREFIX),
        item["device"]["S"],
        item["token_hash"]["S"],
        item["created_at"]["S"],
        item["last_used_at"]["S"],
        item["issued_at"]["S"],
        _text(item, "previous_hash"),
        _text(item, "rotated_under"),
    )


class DynamoSessionStore(TableAdapter):
    def create_session(self, session: SessionRecord) -> None:
        try:
            self.client.put_item(
                TableName=self.table_name,
                Item={
                    **session_key(session.player_id, session.session_id),
                    "device": {"S": session.device},
                    "token_hash": {"S": session.token_hash},
                    "created_at": {"S": session.created_at},
                    "last_used_at": {"S": session.last_used_at},
                    "issued_at": {"S": session.issued_at},
                },
                ConditionExpression="attribute_not_exists(pk)",
            )
        except ClientError as error:
            if not is_conditional_failure(error):
                raise
            raise VersionConflict(None) from None

    def signed_in(self, player_id: str, session_id: str) -> tuple[PlayerRecord | None, SessionRecord | None]:
        if session_id == LEGACY_SESSION:
            item = self.client.get_item(TableName=self.table_name, Key=player_key(player_id)).get("Item")
            if item is None:
                return None, None
            return profile_from_item(item), session_from_item(item)
        # One round trip for both items: the session proves the token, the profile names the player.
        found = self.batch_get([player_key(player_id), session_key(player_id, session_id)])
        profile = next((i for i in found if i["sk"]["S"] == "PROFILE"), None)
        session = next((i for i in found if i["sk"]["S"] != "PROFILE"), None)
        return (
            None if profile is None else profile_from_item(profile),
            None if session is None else session_from_item(session),
        )

    def list_sessions(self, player_id: str) -> list[SessionRecord]:
        items = self.query_all(
            KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
            ExpressionAttributeValues={":pk": {"S": f"PLAYER#{player_id}"}, ":prefix": {"S": SESSION_PREFIX}},
        )
        found = [s for s in map(session_from_item, items) if s is not None]
        profile = self.client.get_item(TableName=self.table_name, Key=player_key(player_id)).get("Item")
        legacy = None if profile is None else session_from_item(profile)
        everything = found if legacy is None else [legacy, *found]
        return sorted(everything, key=lambda s: (s.created_at, s.session_id))

    def replace_token(
        self,
        player_id: str,
        session_id: str,
        *,
        old_hash: str,
        new_hash: str,
        issued_at: str,
        rotated_under: str = "",
    ) -> bool:
        issued = "token_issued_at" if session_id == LEGACY_SESSION else "issued_at"
        values: dict[str, Any] = {
            ":new": {"S": new_hash},
            ":at": {"S": issued_at},
            ":old": {"S": old_hash},
            ":empty": {"S": ""},
        }
        if rotated_under:
            update = f"SET token_hash = :new, {issued} = :at, previous_hash = :old, rotated_under = :key"
            values[":key"] = {"S": rotated_under}
        else:
            update = f"SET token_hash = :new, {issued} = :at REMOVE previous_hash, rotated_under"
        return self.conditional_update(
            session_key(player_id, session_id),
            UpdateExpression=update,
            # A revoked legacy token (an empty hash) never comes back.
            ConditionExpression="token_hash = :old AND token_hash <> :empty",
            ExpressionAttributeValues=values,
        )

    def delete_session(self, player_id: str, session_id: str, *, token_hash: str | None = None) -> bool:
        values: dict[str, Any] = {}
        condition = "attribute_exists(pk)"
        if token_hash is not None:
            condition += " AND token_hash = :hash"
            values[":hash"] = {"S": token_hash}
        if session_id == LEGACY_SESSION:
            # The profile stays: the legacy session ends when no secret hashes to its token hash any more.
            values[":empty"] = {"S": ""}
            return self.conditional_update(
                player_key(player_id),
                UpdateExpression="SET token_hash = :empty REMOVE previous_hash, rotated_under, last_used_at",
                ConditionExpression=condition + " AND token_hash <> :empty",
                ExpressionAttributeValues=values,
            )
        return self.conditional_delete(
            session_key(player_id, session_id),
            ConditionExpression=condition,
            **({"ExpressionAttributeValues": values} if values else {}),
        )

    def touch(self, player_id: str, session_id: str, *, used_at: str, older_than: str) -> None:
        # Never creates an item: a session signed out meanwhile stays signed out.
        self.conditional_update(
            session_key(player_id, session_id),
            UpdateExpression="SET last_used_at = :now",
            ConditionExpression=(
                "attribute_exists(pk) AND (attribute_not_exists(last_used_at) OR last_used_at < :cutoff)"
            ),
            ExpressionAttributeValues={":now": {"S": used_at}, ":cutoff": {"S": older_than}},
        )
