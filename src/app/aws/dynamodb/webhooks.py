"""Webhooks: a player's subscriptions live under the player; delivery attempts under the webhook."""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from app.aws.dynamodb.items import player_key
from app.aws.dynamodb.table import TableAdapter, is_conditional_failure, written_if_condition_held
from app.webhooks.records import (
    DeliveryAttempt,
    WebhookRecord,
    attempt_from_item,
    attempt_item,
    webhook_from_item,
    webhook_item,
    webhook_key,
)


class DynamoWebhookStore(TableAdapter):
    def create_webhook(self, record: WebhookRecord, *, max_per_player: int) -> bool:
        """Add a webhook unless the player already has `max_per_player`; False when at the limit.

        The count sits on the player's profile and moves in the same transaction, so two concurrent
        registrations cannot both take the last slot.
        """
        items: list[Any] = [
            {
                "Update": {
                    "TableName": self.table_name,
                    "Key": player_key(record.player_id),
                    "UpdateExpression": "SET webhook_count = if_not_exists(webhook_count, :zero) + :one",
                    "ConditionExpression": "attribute_exists(pk) AND "
                    "(attribute_not_exists(webhook_count) OR webhook_count < :max)",
                    "ExpressionAttributeValues": {
                        ":zero": {"N": "0"},
                        ":one": {"N": "1"},
                        ":max": {"N": str(max_per_player)},
                    },
                }
            },
            {
                "Put": {
                    "TableName": self.table_name,
                    "Item": webhook_item(record),
                    "ConditionExpression": "attribute_not_exists(pk)",
                }
            },
        ]
        return written_if_condition_held(self.client.transact_write_items, TransactItems=items)

    def list_webhooks(self, player_id: str) -> list[WebhookRecord]:
        return [
            webhook_from_item(item)
            for item in self.query_all(
                KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
                ExpressionAttributeValues={":pk": {"S": f"PLAYER#{player_id}"}, ":prefix": {"S": "WEBHOOK#"}},
                ConsistentRead=True,
            )
        ]

    def get_webhook(self, player_id: str, webhook_id: str) -> WebhookRecord | None:
        item = self.client.get_item(
            TableName=self.table_name, Key=webhook_key(player_id, webhook_id), ConsistentRead=True
        ).get("Item")
        return None if item is None else webhook_from_item(item)

    def delete_webhook(self, player_id: str, webhook_id: str) -> bool:
        """Remove a webhook and free its slot; False when there was no such webhook."""
        items: list[Any] = [
            {
                "Delete": {
                    "TableName": self.table_name,
                    "Key": webhook_key(player_id, webhook_id),
                    "ConditionExpression": "attribute_exists(pk)",
                }
            },
            {
                "Update": {
                    "TableName": self.table_name,
                    "Key": player_key(player_id),
                    "UpdateExpression": "SET webhook_count = webhook_count - :one",
                    "ConditionExpression": "webhook_count > :zero",
                    "ExpressionAttributeValues": {":zero": {"N": "0"}, ":one": {"N": "1"}},
                }
            },
        ]
        return written_if_condition_held(self.client.transact_write_items, TransactItems=items)

    def set_webhook_secret(self, player_id: str, webhook_id: str, secret: str) -> bool:
        return self.conditional_update(
            webhook_key(player_id, webhook_id),
            UpdateExpression="SET secret = :secret",
            ConditionExpression="attribute_exists(pk)",
            ExpressionAttributeValues={":secret": {"S": secret}},
        )

    def record_webhook_result(
        self, player_id: str, webhook_id: str, *, ok: bool, status: str, at: str, disable_after: int
    ) -> WebhookRecord | None:
        """Note a delivery's result on the webhook's health; the webhook as it now is (None if deleted).

        The failure count and the disabling are one conditional update each, so concurrent deliveries
        of the same webhook neither lose a failure nor disable it twice.
        """
        key = webhook_key(player_id, webhook_id)
        values: dict[str, Any] = {":at": {"S": at}, ":status": {"S": status}}
        if ok:
            expression = "SET consecutive_failures = :zero, last_delivery_at = :at, last_status = :status"
            values[":zero"] = {"N": "0"}
        else:
            expression = "SET last_delivery_at = :at, last_status = :status ADD consecutive_failures :one"
            values[":one"] = {"N": "1"}
        try:
            item = self.client.update_item(
                TableName=self.table_name,
                Key=key,
                UpdateExpression=expression,
                ConditionExpression="attribute_exists(pk)",
                ExpressionAttributeValues=values,
                ReturnValues="ALL_NEW",
            )["Attributes"]
        except ClientError as error:
            if is_conditional_failure(error):
                return None
            raise
        record = webhook_from_item(item)
        if ok or record.disabled or record.consecutive_failures < disable_after:
            return record
        try:
            item = self.client.update_item(
                TableName=self.table_name,
                Key=key,
                UpdateExpression="SET disabled = :yes, disabled_at = :at",
                ConditionExpression="attribute_exists(pk) AND disabled = :no",
                ExpressionAttributeValues={":yes": {"BOOL": True}, ":no": {"BOOL": False}, ":at": {"S": at}},
                ReturnValues="ALL_NEW",
            )["Attributes"]
        except ClientError as error:
            if not is_conditional_failure(error):
                raise
            return self.get_webhook(player_id, webhook_id)
        return webhook_from_item(item)

    def put_delivery_attempt(self, attempt: DeliveryAttempt, *, expires_at: int) -> None:
        self.client.put_item(TableName=self.table_name, Item=attempt_item(attempt, expires_at))

    def list_delivery_attempts(self, webhook_id: str, limit: int) -> list[DeliveryAttempt]:
        response = self.client.query(
            TableName=self.table_name,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
            ExpressionAttributeValues={":pk": {"S": f"WEBHOOK#{webhook_id}"}, ":prefix": {"S": "ATTEMPT#"}},
            ScanIndexForward=False,
            Limit=limit,
        )
        return [attempt_from_item(item) for item in response.get("Items", [])]
