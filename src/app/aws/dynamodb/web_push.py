"""Browsers' Web Push subscriptions in the game table: `PLAYER#<player_id>` / `WEBPUSH#<subscription_id>`.

In the player's partition, so erasing an account (which deletes the whole partition) takes them too; no
`sk = STATE`, so the stream consumer never sees them.
"""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from app.aws.dynamodb.table import TableAdapter, is_conditional_failure
from app.notify.web_push.ports import WebPushSubscription

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
        failures=int(item.get("failures", {}).get("N", "0")),
        last_failure=item.get("last_failure", {}).get("S"),
        disabled_at=item.get("disabled_at", {}).get("S"),
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

    def record_web_push_result(
        self, player_id: str, subscription_id: str, *, ok: bool, status: str, at: str, disable_after: int
    ) -> WebPushSubscription | None:
        if ok:
            update: dict[str, Any] = {
                "UpdateExpression": "SET failures = :zero REMOVE last_failure",
                "ExpressionAttributeValues": {":zero": {"N": "0"}},
            }
        else:
            update = {
                "UpdateExpression": (
                    "SET failures = if_not_exists(failures, :zero) + :one, last_failure = :failure"
                ),
                "ExpressionAttributeValues": {
                    ":zero": {"N": "0"},
                    ":one": {"N": "1"},
                    ":failure": {"S": f"{at} {status}"},
                },
            }
        try:
            item = self.client.update_item(
                TableName=self.table_name,
                Key=_key(player_id, subscription_id),
                ConditionExpression="attribute_exists(pk)",
                ReturnValues="ALL_NEW",
                **update,
            )["Attributes"]
        except ClientError as error:
            if is_conditional_failure(error):
                return None
            raise
        subscription = _from_item(item)
        if ok or subscription.failures < disable_after or subscription.disabled_at is not None:
            return subscription
        self.conditional_update(
            _key(player_id, subscription_id),
            UpdateExpression="SET disabled_at = :at",
            ConditionExpression="attribute_exists(pk) AND attribute_not_exists(disabled_at)",
            ExpressionAttributeValues={":at": {"S": at}},
        )
        return self.get_web_push_subscription(player_id, subscription_id)
