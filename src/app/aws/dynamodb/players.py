"""Player profiles: `PLAYER#<id>` / `PROFILE` (the name; a legacy token's hash, see sessions.py), and
the erasure of everything under a player's partition."""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from app.aws.dynamodb.items import player_key
from app.aws.dynamodb.sessions import SESSION_PREFIX, profile_from_item
from app.aws.dynamodb.table import TableAdapter, is_conditional_failure
from app.core.errors import VersionConflict
from app.core.records import PlayerRecord
from app.players.addresses import address_id

# What one transaction may hold: the profile and up to 99 sessions go in the last one, together.
TRANSACTION_LIMIT = 100


class DynamoPlayerStore(TableAdapter):
    def create_player(self, player: PlayerRecord) -> None:
        try:
            self.client.put_item(
                TableName=self.table_name,
                Item={
                    **player_key(player.player_id),
                    "name": {"S": player.name},
                    "token_hash": {"S": player.token_hash},
                    "created_at": {"S": player.created_at},
                    **({"token_issued_at": {"S": player.token_issued_at}} if player.token_issued_at else {}),
                    **({} if player.expires_at is None else {"expires_at": {"N": str(player.expires_at)}}),
                },
                ConditionExpression="attribute_not_exists(pk)",
            )
        except ClientError as error:
            if not is_conditional_failure(error):
                raise
            raise VersionConflict(None) from None

    def get_player(self, player_id: str) -> PlayerRecord | None:
        item = self.client.get_item(TableName=self.table_name, Key=player_key(player_id)).get("Item")
        if item is None:
            return None
        return profile_from_item(item)

    def keep_player(self, player_id: str) -> None:
        self.conditional_update(
            player_key(player_id),
            UpdateExpression="REMOVE expires_at",
            ConditionExpression="attribute_exists(pk)",
        )

    def rename_player(self, player_id: str, name: str) -> bool:
        return self.conditional_update(
            player_key(player_id),
            UpdateExpression="SET #name = :name",
            ConditionExpression="attribute_exists(pk)",
            ExpressionAttributeNames={"#name": "name"},
            ExpressionAttributeValues={":name": {"S": name}},
        )

    def delete_player_data(self, player_id: str) -> int:
        """Every item of `PLAYER#<player_id>`, then the email ownership item the profile names, then the
        sessions and the profile in one transaction (contract: app.players.ports.PlayerStore)."""
        pk = f"PLAYER#{player_id}"
        last: list[dict[str, Any]] = []
        rest: list[dict[str, Any]] = []
        email_hash = ""
        for item in self.query_all(
            KeyConditionExpression="pk = :pk",
            ExpressionAttributeValues={":pk": {"S": pk}},
            ProjectionExpression="pk, sk, email",
            ConsistentRead=True,
        ):
            key = {"pk": item["pk"], "sk": item["sk"]}
            sk = item["sk"]["S"]
            if sk == "PROFILE":
                # The confirmed address is the one the player owns (a pending one was never claimed).
                email = item.get("email", {}).get("S", "")
                email_hash = address_id(email) if email else ""
                last.append(key)  # the profile ends the list: the last item deleted
            elif sk.startswith(SESSION_PREFIX):
                last.insert(0, key)
            else:
                rest.append(key)
        self.batch_write([{"DeleteRequest": {"Key": key}} for key in rest])
        deleted = len(rest)
        if email_hash and self._release_email(player_id, email_hash):
            deleted += 1
        # Sessions beyond what one transaction holds go first; the profile and the rest go together.
        early, final = last[:-TRANSACTION_LIMIT], last[-TRANSACTION_LIMIT:]
        self.batch_write([{"DeleteRequest": {"Key": key}} for key in early])
        if len(final) == 1:
            self.client.delete_item(TableName=self.table_name, Key=final[0])
        elif final:
            self.client.transact_write_items(
                TransactItems=[{"Delete": {"TableName": self.table_name, "Key": key}} for key in final]
            )
        return deleted + len(early) + len(final)

    def _release_email(self, player_id: str, email_hash: str) -> bool:
        """Delete `EMAIL#<hash>` / `OWNER` unless it names another owner (then it is theirs now)."""
        return self.conditional_delete(
            {"pk": {"S": f"EMAIL#{email_hash}"}, "sk": {"S": "OWNER"}},
            ConditionExpression=(
                "attribute_exists(pk) AND (attribute_not_exists(player_id) OR player_id = :me)"
            ),
            ExpressionAttributeValues={":me": {"S": player_id}},
        )
