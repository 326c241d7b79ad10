"""Player profiles: `PLAYER#<id>` / `PROFILE` (the name; a legacy token's hash, see sessions.py)."""

from __future__ import annotations

from botocore.exceptions import ClientError

from app.aws.dynamodb.items import player_key
from app.aws.dynamodb.sessions import profile_from_item
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
        return profile_from_item(item)

    def rename_player(self, player_id: str, name: str) -> bool:
        return written_if_condition_held(
            self.client.update_item,
            TableName=self.table_name,
            Key=player_key(player_id),
            UpdateExpression="SET #name = :name",
            ConditionExpression="attribute_exists(pk)",
            ExpressionAttributeNames={"#name": "name"},
            ExpressionAttributeValues={":name": {"S": name}},
        )
