"""Player profiles: `PLAYER#<id>` / `PROFILE`, with the hash of the player's bearer token."""

from __future__ import annotations

from botocore.exceptions import ClientError

from app.aws.dynamodb.items import player_key
from app.aws.dynamodb.table import TableAdapter, is_conditional_failure, written_if_condition_held
from app.core.errors import VersionConflict
from app.core.records import PlayerRecord


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
        issued = item.get("token_issued_at", {}).get("S", "")
        return PlayerRecord(
            player_id, item["name"]["S"], item["token_hash"]["S"], item["created_at"]["S"], issued
        )

    def replace_token(self, player_id: str, *, old_hash: str, new_hash: str, issued_at: str) -> bool:
        return written_if_condition_held(
            self.client.update_item,
            TableName=self.table_name,
            Key=player_key(player_id),
            UpdateExpression="SET token_hash = :new, token_issued_at = :at",
            ConditionExpression="token_hash = :old",
            ExpressionAttributeValues={
                ":new": {"S": new_hash},
                ":at": {"S": issued_at},
                ":old": {"S": old_hash},
            },
        )
