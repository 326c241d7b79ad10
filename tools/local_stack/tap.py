"""Show what is published to an SNS topic: an SQS queue subscribed to it, polled by a thread."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

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
    parts = [f"subject={subject!r}"] if subject else []
    if attributes:
        parts.append(f"attributes={json.dumps(attributes, sort_keys=True)}")
    parts.append(f"message={envelope['Message']}")
    return " ".join(parts)


class TopicTap:
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
        self.sns = sns_client
        self.sqs = sqs_client
        self.topic_arn = topic_arn
        self.queue_name = queue_name
        self.report = report or (lambda line: LOG.info("nudge published: %s", line))
        self.wait_seconds = wait_seconds
        self.queue_url = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

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

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                self.poll_once()
            except Exception as exc:
                if self._stop.is_set():
                    return
                LOG.warning("polling %s failed: %s", self.queue_name, exc)
                self._stop.wait(1.0)

    def start(self) -> TopicTap:
        if not self.queue_url:
            self.subscribe()
        self._thread = threading.Thread(target=self._loop, name="sns-tap", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
