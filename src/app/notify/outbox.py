"""The notification outbox: what a change owes each player, as one queue message per recipient, kind and
channel (and browser), each with the dedupe id the channel's sender and the provider see.

Pure: `owed_channels` reads a player's preferences, `messages_for` builds the messages; delivery
(`app.notify.delivery.Delivery`) enqueues them and the queue's function (`handlers.notify_delivery`,
through `app.notify.outbox_delivery`) sends them, retried by the queue, once per dedupe id.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from typing import Any

from app.notify.email.channel import EMAILED_KINDS
from app.notify.messages import Kind, Notification
from app.notify.preferences import Channel, NotificationPreferences
from app.notify.web_push.browsers import WEB_PUSH_KINDS
from dixit.lean_dataclass import dataclass


def notification_to_dict(notification: Notification) -> dict[str, Any]:
    return asdict(notification)


def notification_from_dict(data: dict[str, Any]) -> Notification:
    return Notification(**{**data, "kind": Kind(data["kind"])})


def send_id(notification: Notification, channel: Channel, target: str | None = None) -> str:
    """The dedupe id of one send: the notification's (game, player, occasion, kind), the channel and,
    for a browser or a device, which one. The same notification always gives the same ids."""
    base = f"{notification.dedupe_id}:{channel.value}"
    return base if target is None else f"{base}:{target}"


def topic_send_id(notification: Notification) -> str:
    return f"{notification.dedupe_id}:topic"


@dataclass(frozen=True, slots=True)
class OutboxMessage:
    """One queued send. `subscription_id`: the browser (web push); `to_devices`: whether the device
    push message goes to the player's devices as well as to the topic (it always goes to the topic)."""

    channel: Channel
    notification: Notification
    send_id: str
    enqueued_at: str
    time_zone: str = "UTC"
    subscription_id: str | None = None
    to_devices: bool = True

    def to_json(self) -> str:
        body: dict[str, Any] = {
            "channel": self.channel.value,
            "notification": notification_to_dict(self.notification),
            "send_id": self.send_id,
            "enqueued_at": self.enqueued_at,
            "time_zone": self.time_zone,
            "to_devices": self.to_devices,
        }
        if self.subscription_id is not None:
            body["subscription_id"] = self.subscription_id
        return json.dumps(body, separators=(",", ":"), sort_keys=True, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> OutboxMessage:
        data = json.loads(text)
        subscription = data.get("subscription_id")
        return cls(
            channel=Channel(data["channel"]),
            notification=notification_from_dict(dict(data["notification"])),
            send_id=str(data["send_id"]),
            enqueued_at=str(data["enqueued_at"]),
            time_zone=str(data.get("time_zone") or "UTC"),
            subscription_id=None if subscription is None else str(subscription),
            to_devices=bool(data.get("to_devices", True)),
        )


def owed_channels(notification: Notification, preferences: NotificationPreferences) -> tuple[Channel, ...]:
    """The channels `notification` goes to, by the player's preferences and what each channel carries.

    Email and web push carry only their kinds (a timeout goes to the topic and devices alone). The
    device push channel is always owed: its message also publishes to the notification topic
    (operators fan out from there); `wants(DEVICE_PUSH)` decides whether it reaches the devices too.
    """
    kind, game = notification.kind, notification.game_id
    owed = [Channel.DEVICE_PUSH]
    if kind in EMAILED_KINDS and preferences.wants(Channel.EMAIL, kind, game):
        owed.append(Channel.EMAIL)
    if kind in WEB_PUSH_KINDS and preferences.wants(Channel.WEB_PUSH, kind, game):
        owed.append(Channel.WEB_PUSH)
    return tuple(owed)


def messages_for(
    notification: Notification,
    preferences: NotificationPreferences,
    *,
    enqueued_at: str,
    subscriptions: Sequence[str] = (),
) -> list[OutboxMessage]:
    """One message per owed channel; for web push one per browser (`subscriptions`, their ids), so a
    slow or failing browser is retried alone and never holds up another."""
    messages: list[OutboxMessage] = []
    zone = preferences.time_zone
    for channel in owed_channels(notification, preferences):
        if channel is Channel.WEB_PUSH:
            messages += [
                OutboxMessage(
                    channel,
                    notification,
                    send_id(notification, channel, subscription_id),
                    enqueued_at,
                    zone,
                    subscription_id=subscription_id,
                )
                for subscription_id in subscriptions
            ]
            continue
        to_devices = channel is not Channel.DEVICE_PUSH or preferences.wants(
            Channel.DEVICE_PUSH, notification.kind, notification.game_id
        )
        messages.append(
            OutboxMessage(
                channel,
                notification,
                send_id(notification, channel),
                enqueued_at,
                zone,
                to_devices=to_devices,
            )
        )
    return messages


def by_channel(messages: Iterable[OutboxMessage]) -> dict[Channel, list[OutboxMessage]]:
    grouped: dict[Channel, list[OutboxMessage]] = {}
    for message in messages:
        grouped.setdefault(message.channel, []).append(message)
    return grouped
