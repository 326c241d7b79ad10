"""Browsers' Web Push subscriptions in the game table: `PLAYER#<player_id>` / `WEBPUSH#<subscription_id>`.

In the player's partition, so erasing an account (which deletes the whole partition) takes them too; no
`sk = STATE`, so the stream consumer never sees them.
"""

from __future__ import annotations

from typing import Any

from app.aws.dynamodb.table import TableAdapter
from app.notify.web_push_ports import WebPushSubscription

WEB_PUSH_PREFIX = "WEBPUSH#"


def _key(player_id: str, subscription_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"PLAYER#{player_id}"}, "sk": {"S": f"{WEB_PUSH_PREFIX}{subscription_id}"}}


def _from_item(item: dict[str, Any]) -> WebPushSubscription:
    expiration = item.get("expiration_time", {}).get("N")
    return WebPushSubscription(
        subscription_id=item["subscription_id"]["S"],
        endpoint=item["endpoint"]["S"],
        p256dh=item["p256dh"]["S"],
        auth=item["auth"]["S"],
        expiration_time=None if expiration is None else int(expiration),
        created_at=item["created_at"]["S"],
    )


class DynamoWebPushStore(TableAdapter):
    def list_web_push_subscriptions(self, player_id: str) -> list[WebPushSubscription]:
        items = self.query_all(
            KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
            ExpressionAttributeValues={
                ":pk": {"S": f"PLAYER#{player_id}"},
                ":prefix": {"S": WEB_PUSH_PREFIX},
            },
            ConsistentRead=True,
        )
        return [_from_item(item) for item in items]

    def get_web_push_subscription(self, player_id: str, subscription_id: str) -> WebPushSubscription | None:
        item = self.client.get_item(
            TableName=self.table_name, Key=_key(player_id, subscription_id), ConsistentRead=True
        ).get("Item")
        return None if item is None else _from_item(item)

    def put_web_push_subscription(self, player_id: str, subscription: WebPushSubscription) -> None:
        item: dict[str, Any] = {
            **_key(player_id, subscription.subscription_id),
            "subscription_id": {"S": subscription.subscription_id},
            "endpoint": {"S": subscription.endpoint},
            "p256dh": {"S": subscription.p256dh},
            "auth": {"S": subscription.auth},
            "created_at": {"S": subscription.created_at},
        }
        if subscription.expiration_time is not None:
            item["expiration_time"] = {"N": str(subscription.expiration_time)}
        self.client.put_item(TableName=self.table_name, Item=item)

    def delete_web_push_subscription(
        self, player_id: str, subscription_id: str, *, endpoint: str | None = None
    ) -> bool:
        condition: dict[str, Any] = {"ConditionExpression": "attribute_exists(pk)"}
        if endpoint is not None:
            condition = {
                "ConditionExpression": "#endpoint = :endpoint",
                "ExpressionAttributeNames": {"#endpoint": "endpoint"},
                "ExpressionAttributeValues": {":endpoint": {"S": endpoint}},
            }
        return self.conditional_delete(_key(player_id, subscription_id), **condition)
