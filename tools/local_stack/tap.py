"""Show notifications as they would be delivered: to the SNS topic (through an SQS queue subscribed to it)
and to devices (the pushes moto keeps on each platform endpoint)."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Self

from local_stack.poller import Loop, Poller

if TYPE_CHECKING:
    from mypy_boto3_sns import SNSClient
    from mypy_boto3_sqs import SQSClient

LOG = logging.getLogger("local_stack.sns")


def describe(message_body: str) -> str:
    """One readable line for an SQS message carrying an SNS notification."""
    try:
        envelope: Any = json.loads(message_body)
    except ValueError:
        return message_body
    if not isinstance(envelope, dict) or "Message" not in envelope:
        return message_body
    subject = envelope.get("Subject")
    attributes = {
        name: value.get("Value") for name, value in (envelope.get("MessageAttributes") or {}).items()
    }
    # Where, what and for whom first: what an operator's filter policy would look at.
    parts = [f"topic={str(envelope['TopicArn']).rsplit(':', 1)[-1]}"] if envelope.get("TopicArn") else []
    parts += [f"{name}={attributes[name]}" for name in ("kind", "player_id") if attributes.get(name)]
    if subject:
        parts.append(f"subject={subject!r}")
    if attributes:
        parts.append(f"attributes={json.dumps(attributes, sort_keys=True)}")
    parts.append(f"message={envelope['Message']}")
    return " ".join(parts)


class TopicTap(Poller):
    """Subscribes a queue to ``topic_arn`` and reports each message through ``report``."""

    def __init__(
        self,
        sns_client: SNSClient,
        sqs_client: SQSClient,
        topic_arn: str,
        queue_name: str,
        *,
        report: Callable[[str], None] | None = None,
        wait_seconds: int = 1,
    ) -> None:
        super().__init__(LOG)
        self.sns = sns_client
        self.sqs = sqs_client
        self.topic_arn = topic_arn
        self.queue_name = queue_name
        self.report = report or (lambda line: LOG.info("nudge published: %s", line))
        self.wait_seconds = wait_seconds
        self.queue_url = ""

    def subscribe(self) -> str:
        self.queue_url = self.sqs.create_queue(QueueName=self.queue_name)["QueueUrl"]
        queue_arn = self.sqs.get_queue_attributes(QueueUrl=self.queue_url, AttributeNames=["QueueArn"])[
            "Attributes"
        ]["QueueArn"]
        self.sns.subscribe(TopicArn=self.topic_arn, Protocol="sqs", Endpoint=queue_arn)
        return self.queue_url

    def poll_once(self) -> list[str]:
        response = self.sqs.receive_message(
            QueueUrl=self.queue_url, MaxNumberOfMessages=10, WaitTimeSeconds=self.wait_seconds
        )
        lines = []
        for message in response.get("Messages", []):
            line = describe(message.get("Body", ""))
            lines.append(line)
            self.report(line)
            self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"])
        return lines

    def loops(self) -> list[Loop]:
        return [Loop("sns-tap", f"polling {self.queue_name}", self.poll_once)]  # a long poll: no pause

    def start(self) -> Self:
        if not self.queue_url:
            self.subscribe()
        return super().start()


def describe_push(endpoint_arn: str, owner: str, message: str) -> str:
    """One readable line for a push SNS sent to a platform endpoint (``MessageStructure=json``)."""
    # arn:aws:sns:<region>:<account>:endpoint/<PLATFORM>/<application>/<id>
    platform, application, device = ([*endpoint_arn.rsplit(":", 1)[-1].split("/")[1:], "", "", ""])[:3]
    fields: dict[str, Any] = {}
    try:
        structure: Any = json.loads(message)
        payload: Any = json.loads(structure.get(platform) or structure.get("GCM") or "{}")
        fields = payload.get("data", payload) if isinstance(payload, dict) else {}
    except (ValueError, AttributeError):
        pass
    parts = [f"device={application}/{device}", f"platform={platform}", f"player_id={owner or '?'}"]
    parts += [
        f"{name}={fields[name]}"
        for name in ("kind", "game_id")
        if isinstance(fields, dict) and name in fields
    ]
    return " ".join(parts)


class EndpointTap(Poller):
    """Reports every new message on the platform endpoints ``endpoints()`` lists (arn, owner, messages)."""

    def __init__(
        self,
        endpoints: Callable[[], Iterable[tuple[str, str, Iterable[str]]]],
        *,
        report: Callable[[str], None] | None = None,
        poll_seconds: float = 0.25,
    ) -> None:
        super().__init__(LOG)
        self.endpoints = endpoints
        self.report = report or (lambda line: LOG.info("push: %s", line))
        self.poll_seconds = poll_seconds
        self._seen: dict[str, int] = {}

    def poll_once(self) -> list[str]:
        lines = []
        for arn, owner, messages in list(self.endpoints()):
            pending = list(messages)[self._seen.get(arn, 0) :]
            self._seen[arn] = self._seen.get(arn, 0) + len(pending)
            for message in pending:
                line = describe_push(arn, owner, message)
                lines.append(line)
                self.report(line)
        return lines

    def loops(self) -> list[Loop]:
        pause = self.poll_seconds
        return [Loop("push-tap", "reading platform endpoints", self.poll_once, pause, pause, fixed_rate=True)]

    def failed(self, what: str, exc: Exception) -> None:
        LOG.debug("%s failed: %s", what, exc)  # a dict changing size under us: the next poll sees it
