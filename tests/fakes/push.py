"""SNS as delivery sees it, in memory: the topic, one platform endpoint per push token, and pushes."""

from __future__ import annotations

from collections.abc import Iterable

from app.notify.devices.channels import Endpoint, InvalidPushToken, Platform
from app.notify.messages import Notification

TOPIC_ARN = "arn:aws:sns:us-east-1:000000000000:dixit-nudges-test"


class MemoryNotifier:
    """A PushChannel that records what would be published and pushed; a token is one endpoint, whoever
    registers it.

    `refused_tokens` are push tokens the platform refuses; `gone` are endpoints it disabled (a push to
    one fails for good, as to a deleted one), until the token is registered again.
    """

    def __init__(
        self, *, topic_arn: str = TOPIC_ARN, platforms: Iterable[Platform] = tuple(Platform)
    ) -> None:
        self.topic_arn = topic_arn
        self.platform_applications = {
            p: f"arn:aws:sns:us-east-1:000000000000:app/{p.value}/dixit" for p in platforms
        }
        self.published: list[Notification] = []
        self.pushed: list[tuple[str, Notification]] = []  # (endpoint arn, notification)
        self.texts: list[str] = []  # what each push showed, in the order of `pushed`
        self.deleted: list[str] = []
        self.refused_tokens: set[str] = set()
        self.gone: set[str] = set()
        self._endpoints: dict[tuple[Platform, str], tuple[str, str]] = {}  # (platform, token) -> (arn, owner)
        self._made = 0

    def push_configured(self, platform: Platform) -> bool:
        return platform in self.platform_applications

    def publish(self, notification: Notification) -> bool:
        if not self.topic_arn:
            return False
        self.published.append(notification)
        return True

    def create_endpoint(self, platform: Platform, token: str, *, player_id: str) -> Endpoint:
        if token in self.refused_tokens:
            raise InvalidPushToken(f"invalid token {token!r}")
        known = self._endpoints.get((platform, token))
        if known is None:
            self._made += 1
            known = (f"arn:aws:sns:us-east-1:000000000000:endpoint/{platform.value}/{self._made}", "")
        arn, owner = known
        self._endpoints[(platform, token)] = (arn, player_id)
        self.gone.discard(arn)  # registering a known token enables its endpoint again
        return Endpoint(arn, previous_owner=owner if owner not in ("", player_id) else None)

    def delete_endpoint(self, endpoint_arn: str) -> None:
        self.deleted.append(endpoint_arn)
        self._endpoints = {key: value for key, value in self._endpoints.items() if value[0] != endpoint_arn}

    def push(
        self, endpoint_arn: str, platform: Platform, notification: Notification, text: str | None = None
    ) -> bool:
        live = {arn for arn, _ in self._endpoints.values()}
        if endpoint_arn in self.gone or endpoint_arn not in live:
            return False
        self.pushed.append((endpoint_arn, notification))
        self.texts.append(text or notification.text)
        return True
