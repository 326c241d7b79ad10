"""The only module that talks to SNS: the notification topic and players' mobile push endpoints."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from botocore.exceptions import ClientError

from app.aws import clients as aws_clients
from app.notify.devices.channels import Endpoint, InvalidPushToken, Platform
from app.notify.messages import Notification

if TYPE_CHECKING:
    from mypy_boto3_sns import SNSClient


# The keys SNS expects in a MessageStructure=json message for each kind of platform application.
_SNS_PLATFORM_KEY = {Platform.APNS: "APNS", Platform.APNS_SANDBOX: "APNS_SANDBOX", Platform.FCM: "GCM"}
# SNS refuses a second endpoint for a token it knows, and names the existing one in the message.
_EXISTING_ENDPOINT = re.compile(r"Endpoint (arn:\S+) already exists")
# Errors that mean the endpoint will never take a message again: the app was uninstalled, the token
# expired, or someone deleted the endpoint. Anything else may pass and is worth another try later.
_GONE = frozenset({"EndpointDisabled", "NotFound", "EndpointDisabledException", "NotFoundException"})


class SnsNotifier:
    """app.notify.devices.channels.PushChannel over SNS: the topic and platform endpoints."""

    def __init__(
        self,
        topic_arn: str,
        client: SNSClient | None = None,
        *,
        platform_applications: Mapping[Platform, str] | None = None,
    ) -> None:
        self.topic_arn = topic_arn
        self._client = client
        self.platform_applications = {p: arn for p, arn in (platform_applications or {}).items() if arn}

    @property
    def client(self) -> SNSClient:
        if self._client is None:
            self._client = aws_clients.sns()
        return self._client

    @property
    def publisher(self) -> SNSClient:
        """What publishes (the topic, a device): a client that never repeats a Publish by itself, since
        a repeat after a lost answer would be a second push (the outbox retries instead)."""
        return self._client if self._client is not None else aws_clients.sns_once()

    # The topic

    def publish(self, notification: Notification) -> bool:
        """Publish to the topic with attributes to filter on; False when no topic is configured."""
        if not self.topic_arn:
            return False
        extra: dict[str, Any] = {}
        if self.topic_arn.endswith(".fifo"):
            # A FIFO topic drops a repeat of the same dedupe id within its five-minute window.
            extra = {
                "MessageGroupId": notification.player_id,
                "MessageDeduplicationId": hashlib.sha256(notification.dedupe_id.encode()).hexdigest(),
            }
        self.publisher.publish(
            TopicArn=self.topic_arn,
            Subject=notification.text,
            Message=notification.to_json(),
            MessageAttributes={
                "player_id": {"DataType": "String", "StringValue": notification.player_id},
                "game_id": {"DataType": "String", "StringValue": notification.game_id},
                "kind": {"DataType": "String", "StringValue": notification.kind.value},
            },
            **extra,
        )
        return True

    # Mobile push

    def push_configured(self, platform: Platform) -> bool:
        return platform in self.platform_applications

    def create_endpoint(self, platform: Platform, token: str, *, player_id: str) -> Endpoint:
        """The platform endpoint for `token`, created or taken over and enabled.

        A token is one app install: when another player had registered it, the endpoint moves to
        `player_id` and `previous_owner` names the other player, whose device record must go.
        """
        application = self.platform_applications[platform]
        try:
            arn = self.client.create_platform_endpoint(
                PlatformApplicationArn=application, Token=token, CustomUserData=player_id
            )["EndpointArn"]
        except ClientError as error:
            message = str(error.response.get("Error", {}).get("Message", ""))
            existing = _EXISTING_ENDPOINT.search(message)
            if existing is None:
                if _code(error) == "InvalidParameter":
                    raise InvalidPushToken(message) from None
                raise
            arn = existing.group(1)
        attributes = self.client.get_endpoint_attributes(EndpointArn=arn).get("Attributes", {})
        owner = attributes.get("CustomUserData") or None
        # A known token comes back as it was, possibly disabled by the platform: registering revives it.
        if (
            str(attributes.get("Enabled", "true")).lower() != "true"
            or attributes.get("Token") != token
            or owner != player_id
        ):
            self.client.set_endpoint_attributes(
                EndpointArn=arn, Attributes={"Token": token, "CustomUserData": player_id, "Enabled": "true"}
            )
        return Endpoint(arn, previous_owner=owner if owner not in (None, player_id) else None)

    def delete_endpoint(self, endpoint_arn: str) -> None:
        self.client.delete_endpoint(EndpointArn=endpoint_arn)  # idempotent in SNS

    def push(
        self, endpoint_arn: str, platform: Platform, notification: Notification, text: str | None = None
    ) -> bool:
        """Send to one device; False when the endpoint is gone for good (the caller removes it)."""
        body = notification.body()
        shown = text or notification.text
        if platform is Platform.FCM:
            payload: dict[str, Any] = {
                # One notification per game on the phone: a newer one replaces the older (FCM's tag).
                "notification": {
                    "title": "Dixit",
                    "body": shown,
                    "tag": f"dixit-game-{notification.game_id}",
                },
                "data": {key: str(value) for key, value in body.items()},
            }
        else:
            payload = {
                "aps": {"alert": shown, "thread-id": notification.game_id},
                **body,
            }
        message = {"default": shown, _SNS_PLATFORM_KEY[platform]: json.dumps(payload)}
        try:
            self.publisher.publish(
                TargetArn=endpoint_arn, Message=json.dumps(message), MessageStructure="json"
            )
        except ClientError as error:
            if _code(error) in _GONE:
                return False
            raise
        return True


def _code(error: ClientError) -> str:
    return str(error.response.get("Error", {}).get("Code", ""))
