"""The channels a notification can reach, each behind one `Sender`: the place a new channel plugs in.

`channel_senders` lists this deployment's senders by `Channel`; `app.notify.delivery.Delivery` asks the
player's preferences which of them a notification goes to, and holds it through their quiet hours,
so a sender only sends. The device push (SNS platform endpoints) lives here; the email and web push
channels add their senders to `channel_senders`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from app.core.telemetry import count, logger
from app.notify.channels import PushChannel
from app.notify.email_channel import EmailSender
from app.notify.messages import Notification
from app.notify.ports import Delivering, Device, NotificationStore
from app.notify.preferences import Channel
from app.notify.web_push import WebPush


class Sender(Protocol):
    def send(self, notification: Notification) -> None:
        """Deliver to this channel now (delivery already decided it should); raise when it failed.

        A failure is counted per channel by delivery and does not stop the other channels.
        """
        ...


@runtime_checkable
class Reaching(Protocol):
    def reaches(self, notification: Notification) -> bool:
        """Whether this channel has somewhere to send `notification` (an address, a device, a browser)."""
        ...


@dataclass(frozen=True, slots=True)
class DevicePush:
    """Every registered device of the player, through their SNS platform endpoints."""

    store: NotificationStore
    notifier: PushChannel

    def send(self, notification: Notification) -> None:
        for device in self.store.devices(notification.player_id):
            if not self.notifier.push(device.endpoint_arn, device.platform, notification):
                self._forget(notification.player_id, device)

    def reaches(self, notification: Notification) -> bool:
        return bool(self.store.devices(notification.player_id))

    def _forget(self, player_id: str, device: Device) -> None:
        # The platform disabled the endpoint (app uninstalled, token expired): retrying would fail forever.
        logger.info("removing a disabled push endpoint", extra={"device_id": device.device_id})
        self.store.delete_device(player_id, device.device_id, endpoint_arn=device.endpoint_arn)
        self.notifier.delete_endpoint(device.endpoint_arn)
        count("DevicesRemoved")


def channel_senders(
    services: Delivering | None, store: NotificationStore, notifier: PushChannel
) -> dict[Channel, Sender]:
    """The senders of every channel this deployment has (`services`: None when built from ports alone)."""
    senders: dict[Channel, Sender] = {Channel.DEVICE_PUSH: DevicePush(store, notifier)}
    # Channel.EMAIL and Channel.WEB_PUSH: their senders join here, built from `services`.
    if services is not None:
        senders[Channel.EMAIL] = EmailSender(services)
        senders[Channel.WEB_PUSH] = WebPush.of(services)
    return senders
