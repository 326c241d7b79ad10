"""Where notifications go besides storage: the notification topic and players' mobile push endpoints.

The port and its plain types only; `app.aws.sns.SnsNotifier` is the SNS adapter `app.bootstrap` builds.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

from dixit.lean_dataclass import dataclass

if TYPE_CHECKING:
    from app.notify.messages import Notification


class Platform(StrEnum):
    APNS = "apns"
    APNS_SANDBOX = "apns_sandbox"
    FCM = "fcm"


@dataclass(frozen=True, slots=True)
class Endpoint:
    arn: str
    previous_owner: str | None = None


class InvalidPushToken(ValueError):
    """The platform (through SNS) refused the push token."""


class PushChannel(Protocol):
    """The topic every notification is published to, and each device's push endpoint."""

    def publish(self, notification: Notification) -> bool:
        """Publish to the topic with attributes to filter on; False when no topic is configured."""
        ...

    def push_configured(self, platform: Platform) -> bool: ...

    def create_endpoint(self, platform: Platform, token: str, *, player_id: str) -> Endpoint:
        """The platform endpoint for `token`, created or taken over and enabled.

        A token is one app install: when another player had registered it, the endpoint moves to
        `player_id` and `previous_owner` names the other player, whose device record must go.
        Raises InvalidPushToken when the platform refuses the token.
        """
        ...

    def delete_endpoint(self, endpoint_arn: str) -> None:
        """Idempotent: deleting an endpoint that is already gone succeeds."""
        ...

    def push(
        self, endpoint_arn: str, platform: Platform, notification: Notification, text: str | None = None
    ) -> bool:
        """Send to one device, showing `text` (default: the kind's plain text); False when the endpoint
        is gone for good (the caller removes it). The payload carries the dedupe id."""
        ...
