"""The event feed: pk `GAME#<game_id>`, sk `FEED#<player_id>#<position>`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.aws.dynamodb.table import TableAdapter
from app.core.records import FeedItem


class DynamoFeedStore(TableAdapter):
    def put_feed_items(self, items: Sequence[FeedItem], *, expires_at: int | None) -> None:
        self.batch_write([{"PutRequest": {"Item": _feed_item(item, expires_at)}} for item in items])

    def expire_feed(self, game_id: str, *, expires_at: int) -> None:
        for item in self.query_all(
            KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
            ExpressionAttributeValues={":pk": {"S": f"GAME#{game_id}"}, ":prefix": {"S": "FEED#"}},
            ProjectionExpression="pk, sk",
        ):
            self.client.update_item(
                TableName=self.table_name,
                Key={"pk": item["pk"], "sk": item["sk"]},
                UpdateExpression="SET expires_at = :at",
                ExpressionAttributeValues={":at": {"N": str(expires_at)}},
            )

    def list_feed(self, game_id: str, player_id: str, *, after: str, limit: int) -> list[FeedItem]:
        prefix = f"FEED#{player_id}#"
        response = self.client.query(
            TableName=self.table_name,
            KeyConditionExpression="pk = :pk AND sk BETWEEN :after AND :end",
            ExpressionAttributeValues={
                ":pk": {"S": f"GAME#{game_id}"},
                # Positions are digits, dots, "m_" and hex, so "~" sorts after every one of them.
                ":after": {"S": f"{prefix}{after}~" if after else prefix},
                ":end": {"S": f"{prefix}~"},
            },
            Limit=limit,
        )
        return [
            FeedItem(
                game_id=game_id,
                player_id=player_id,
                position=item["sk"]["S"].removeprefix(prefix),
                event_json=item["event"]["S"],
            )
            for item in response.get("Items", [])
        ]


def _feed_item(item: FeedItem, expires_at: int | None) -> dict[str, Any]:
    stored: dict[str, Any] = {
        "pk": {"S": f"GAME#{item.game_id}"},
        "sk": {"S": f"FEED#{item.player_id}#{item.position}"},
        "event": {"S": item.event_json},
    }
    if expires_at is not None:
        stored["expires_at"] = {"N": str(expires_at)}
    return stored
