"""Delivery's items in the game table: devices, mutes and the rate limits (layout: docs/architecture.md).

Kept apart from the game's items: none of these items is part of a move, and none has `sk = STATE`, so the
stream consumer (filtered on `sk = STATE`) never sees them.
"""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from app.aws.dynamodb.table import TableAdapter, is_conditional_failure
from app.notify import holding
from app.notify.devices.channels import Platform
from app.notify.messages import Kind, Notification
from app.notify.ports import Device, Held
from app.notify.preferences import (
    DEFAULT_TIME_ZONE,
    Channel,
    NotificationPreferences,
    UnsubscribeScope,
    all_channels,
)
from dixit.quiet_hours import QuietHours

NOTIFY_SK = "NOTIFY"
NUDGE_SK = "NUDGE"
DEVICE_PREFIX = "DEVICE#"
HELD_PREFIX = "HELD#"


def _player_pk(player_id: str) -> dict[str, Any]:
    return {"S": f"PLAYER#{player_id}"}


def _notify_key(player_id: str) -> dict[str, Any]:
    return {"pk": _player_pk(player_id), "sk": {"S": NOTIFY_SK}}


def _device_key(player_id: str, device_id: str) -> dict[str, Any]:
    return {"pk": _player_pk(player_id), "sk": {"S": f"{DEVICE_PREFIX}{device_id}"}}


def _device_from_item(item: dict[str, Any]) -> Device:
    return Device(
        device_id=item["device_id"]["S"],
        platform=Platform(item["platform"]["S"]),
        endpoint_arn=item["endpoint_arn"]["S"],
        registered_at=item["registered_at"]["S"],
    )


def _preferences_from_item(item: dict[str, Any]) -> NotificationPreferences:
    # Items written before the preferences grew have only the mutes: the rest is the defaults.
    channels = all_channels()
    for name, kinds in item.get("channels", {}).get("M", {}).items():
        channels[Channel(name)] = frozenset(Kind(k["S"]) for k in kinds.get("L", []))
    quiet = item.get("quiet_hours", {}).get("L")
    digest = item.get("digest_hour", {}).get("N")
    return NotificationPreferences(
        muted=bool(item.get("muted", {}).get("BOOL", False)),
        muted_games=frozenset(item.get("muted_games", {}).get("SS", [])),
        time_zone=item.get("time_zone", {}).get("S", DEFAULT_TIME_ZONE),
        quiet_hours=None if quiet is None else QuietHours.parse(quiet[0]["S"], quiet[1]["S"]),
        channels=channels,
        digest_hour=None if digest is None else int(digest),
        # Stored only when turned off, so every item written before it reads as on.
        digest_talk="digest_talk_off" not in item,
        link_generations={
            UnsubscribeScope(name): int(value["N"])
            for name, value in item.get("link_generations", {}).get("M", {}).items()
        },
    )


class DynamoNotificationStore(TableAdapter):
    # Preferences and mutes

    def preferences(self, player_id: str) -> NotificationPreferences:
        item = self.client.get_item(TableName=self.table_name, Key=_notify_key(player_id)).get("Item")
        return NotificationPreferences() if item is None else _preferences_from_item(item)

    def save_preferences(self, player_id: str, preferences: NotificationPreferences) -> None:
        # One update of the named attributes: the per-game mutes and the rate-limit slots stay as they are.
        hours = preferences.quiet_hours
        values: dict[str, Any] = {
            ":muted": {"BOOL": preferences.muted},
            ":tz": {"S": preferences.time_zone},
            ":channels": {
                "M": {
                    channel.value: {"L": [{"S": k.value} for k in sorted(kinds)]}
                    for channel, kinds in preferences.channels.items()
                }
            },
        }
        sets = ["muted = :muted", "time_zone = :tz", "channels = :channels"]
        removes = []
        if hours is None:
            removes.append("quiet_hours")
        else:
            sets.append("quiet_hours = :quiet")
            values[":quiet"] = {"L": [{"S": hours.start_text}, {"S": hours.end_text}]}
        if preferences.digest_hour is None:
            removes.append("digest_hour")
        else:
            sets.append("digest_hour = :digest")
            values[":digest"] = {"N": str(preferences.digest_hour)}
        if preferences.digest_talk:
            removes.append("digest_talk_off")
        else:
            sets.append("digest_talk_off = :talk_off")
            values[":talk_off"] = {"BOOL": True}
        if not preferences.link_generations:
            removes.append("link_generations")
        else:
            sets.append("link_generations = :links")
            links = preferences.link_generations
            values[":links"] = {"M": {scope.value: {"N": str(n)} for scope, n in sorted(links.items())}}
        expression = "SET " + ", ".join(sets) + (" REMOVE " + ", ".join(removes) if removes else "")
        self.client.update_item(
            TableName=self.table_name,
            Key=_notify_key(player_id),
            UpdateExpression=expression,
            ExpressionAttributeValues=values,
        )

    def set_muted(self, player_id: str, muted: bool) -> None:
        self.client.update_item(
            TableName=self.table_name,
            Key=_notify_key(player_id),
            UpdateExpression="SET muted = :muted",
            ExpressionAttributeValues={":muted": {"BOOL": muted}},
        )

    def set_game_muted(self, player_id: str, game_id: str, muted: bool) -> None:
        # A string set: ADD and DELETE are idempotent, and an emptied set disappears by itself.
        self.client.update_item(
            TableName=self.table_name,
            Key=_notify_key(player_id),
            UpdateExpression=f"{'ADD' if muted else 'DELETE'} muted_games :game",
            ExpressionAttributeValues={":game": {"SS": [game_id]}},
        )

    # Rate limits: one conditional write each, so concurrent senders cannot both win.

    def claim_reminder(self, player_id: str, *, now: int, window_seconds: int) -> bool:
        """Take the player's reminder slot unless they had one in the last `window_seconds`."""
        return self.conditional_update(
            _notify_key(player_id),
            UpdateExpression="SET last_reminder_at = :now",
            ConditionExpression="attribute_not_exists(last_reminder_at) OR last_reminder_at <= :cutoff",
            ExpressionAttributeValues={
                ":now": {"N": str(now)},
                ":cutoff": {"N": str(now - window_seconds)},
            },
        )

    def claim_game_nudge(self, game_id: str, *, now: int, window_seconds: int) -> int | None:
        """Take the game's hand-nudge slot; None when taken, else the seconds until it frees up."""
        try:
            self.client.update_item(
                TableName=self.table_name,
                Key={"pk": {"S": f"GAME#{game_id}"}, "sk": {"S": NUDGE_SK}},
                UpdateExpression="SET last_nudge_at = :now",
                ConditionExpression="attribute_not_exists(last_nudge_at) OR last_nudge_at <= :cutoff",
                ExpressionAttributeValues={
                    ":now": {"N": str(now)},
                    ":cutoff": {"N": str(now - window_seconds)},
                },
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except ClientError as error:
            if not is_conditional_failure(error):
                raise
            response: dict[str, Any] = dict(error.response)
            item: dict[str, Any] = response.get("Item") or {}
            last = int(item.get("last_nudge_at", {}).get("N", now))
            return max(1, last + window_seconds - now)
        return None

    # Devices

    def devices(self, player_id: str) -> list[Device]:
        paginator = self.client.get_paginator("query")
        found: list[Device] = []
        for page in paginator.paginate(
            TableName=self.table_name,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
            ExpressionAttributeValues={":pk": _player_pk(player_id), ":prefix": {"S": DEVICE_PREFIX}},
        ):
            found += [_device_from_item(item) for item in page.get("Items", [])]
        return found

    def get_device(self, player_id: str, device_id: str) -> Device | None:
        item = self.client.get_item(
            TableName=self.table_name, Key=_device_key(player_id, device_id), ConsistentRead=True
        ).get("Item")
        return None if item is None else _device_from_item(item)

    def put_device(self, player_id: str, device: Device) -> None:
        self.client.put_item(
            TableName=self.table_name,
            Item={
                **_device_key(player_id, device.device_id),
                "device_id": {"S": device.device_id},
                "platform": {"S": device.platform.value},
                "endpoint_arn": {"S": device.endpoint_arn},
                "registered_at": {"S": device.registered_at},
            },
        )

    def delete_device(self, player_id: str, device_id: str, *, endpoint_arn: str | None = None) -> bool:
        """Remove a device; with `endpoint_arn`, only while it still points there (not re-registered)."""
        condition: dict[str, Any] = {"ConditionExpression": "attribute_exists(pk)"}
        if endpoint_arn is not None:
            condition = {
                "ConditionExpression": "endpoint_arn = :arn",
                "ExpressionAttributeValues": {":arn": {"S": endpoint_arn}},
            }
        return self.conditional_delete(_device_key(player_id, device_id), **condition)

    # Held through quiet hours: `HELD#<shard>` partitions, sorted by release time then player and message.

    def hold(self, notification: Notification, *, release_at: int) -> None:
        self.client.put_item(
            TableName=self.table_name,
            Item={
                **_held_key(notification, release_at),
                "notification": {"S": holding.to_json(notification)},
                "release_at": {"N": str(release_at)},
                "expires_at": {"N": str(release_at + holding.HELD_TTL_AFTER_RELEASE)},
            },
        )

    def held_page(self, shard: str, now: int, *, limit: int, start: Any = None) -> tuple[list[Held], Any]:
        kwargs: dict[str, Any] = {"ExclusiveStartKey": start} if start else {}
        response = self.client.query(
            TableName=self.table_name,
            KeyConditionExpression="pk = :pk AND sk <= :upto",
            # "~" sorts after every character of an id: everything released at `now` is in.
            ExpressionAttributeValues={
                ":pk": {"S": f"{HELD_PREFIX}{shard}"},
                ":upto": {"S": f"{now:010d}#~"},
            },
            Limit=limit,
            ConsistentRead=True,
            **kwargs,
        )
        found = [
            Held(holding.from_json(item["notification"]["S"]), int(item["release_at"]["N"]))
            for item in response.get("Items", [])
        ]
        return found, response.get("LastEvaluatedKey")

    def take_held(self, held: Held) -> bool:
        return self.conditional_delete(
            _held_key(held.notification, held.release_at),
            ConditionExpression="attribute_exists(pk)",
        )


def _held_key(notification: Notification, release_at: int) -> dict[str, Any]:
    shard = holding.shard_of(notification.player_id)
    return {
        "pk": {"S": f"{HELD_PREFIX}{shard}"},
        "sk": {"S": f"{release_at:010d}#{notification.player_id}#{notification.dedupe_id}"},
    }
