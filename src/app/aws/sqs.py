"""The only module that talks to SQS: the webhook delivery queue, the notification outbox's queue per
channel, and their dead-letter queues."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from botocore.exceptions import BotoCoreError, ClientError

from app.aws import clients as aws_clients
from app.webhooks.ports import MAX_VISIBILITY_SECONDS

if TYPE_CHECKING:
    from mypy_boto3_sqs import SQSClient

    from app.notify.preferences import Channel

_BATCH = 10  # SendMessageBatch's limit


class SqsWebhookQueue:
    """app.webhooks.ports.WebhookQueue over SQS."""

    def __init__(self, queue_url: str, dlq_url: str = "", client: SQSClient | None = None) -> None:
        self.queue_url = queue_url
        self.dlq_url = dlq_url
        self._client = client

    @property
    def client(self) -> SQSClient:
        if self._client is None:
            self._client = aws_clients.sqs()
        return self._client

    def send(self, bodies: Sequence[str]) -> list[str]:
        """Enqueue every body; returns the bodies SQS refused (the caller decides whether to retry).

        SQS unreachable or failing counts as refusing them all, as a partial refusal does: the stream then
        retries its record, and table talk keeps the message it already stored (app.flows.table_talk)
        instead of answering 500 to a poster who would retry it into a second copy.
        """
        if not bodies:
            return []
        try:
            return _send_batches(self.client, self.queue_url, bodies)
        except (ClientError, BotoCoreError):
            return list(bodies)

    def retry_later(self, receipt_handle: str, delay_seconds: int) -> None:
        """Hide a message for `delay_seconds`: the queue itself then redelivers it, which is the backoff."""
        self.client.change_message_visibility(
            QueueUrl=self.queue_url,
            ReceiptHandle=receipt_handle,
            VisibilityTimeout=max(0, min(delay_seconds, MAX_VISIBILITY_SECONDS)),
        )

    def dead_letter(self, body: str, reason: str) -> None:
        self.client.send_message(
            QueueUrl=self.dlq_url,
            MessageBody=body,
            MessageAttributes={"reason": {"DataType": "String", "StringValue": reason}},
        )


def _send_batches(client: SQSClient, queue_url: str, bodies: Sequence[str]) -> list[str]:
    refused: list[str] = []
    for start in range(0, len(bodies), _BATCH):
        chunk = bodies[start : start + _BATCH]
        entries: list[Any] = [{"Id": str(i), "MessageBody": body} for i, body in enumerate(chunk)]
        response = client.send_message_batch(QueueUrl=queue_url, Entries=entries)
        refused += [chunk[int(failed["Id"])] for failed in response.get("Failed", [])]
    return refused


class SqsNotificationQueue:
    """app.notify.outbox_ports.NotificationQueue over SQS: `queues` maps a channel to its queue's URL
    and its dead-letter queue's (either may be empty: not configured)."""

    def __init__(self, queues: Mapping[Channel, tuple[str, str]], client: SQSClient | None = None) -> None:
        self.queues = {channel: urls for channel, urls in queues.items() if urls[0]}
        self._client = client

    @property
    def client(self) -> SQSClient:
        if self._client is None:
            self._client = aws_clients.sqs()
        return self._client

    def configured(self, channel: Channel) -> bool:
        return channel in self.queues

    def enqueue(self, channel: Channel, bodies: Sequence[str]) -> list[str]:
        if not bodies:
            return []
        if channel not in self.queues:
            return list(bodies)
        try:
            return _send_batches(self.client, self.queues[channel][0], bodies)
        except (ClientError, BotoCoreError):
            # Throttled, failing or unreachable: all refused (a batch that went in is sent once anyway:
            # the ledger knows its dedupe ids), and the caller retries.
            return list(bodies)

    def retry_later(self, channel: Channel, receipt_handle: str, delay_seconds: int) -> None:
        self.client.change_message_visibility(
            QueueUrl=self.queues[channel][0],
            ReceiptHandle=receipt_handle,
            VisibilityTimeout=max(0, min(delay_seconds, MAX_VISIBILITY_SECONDS)),
        )

    def dead_letter(self, channel: Channel, body: str, reason: str) -> bool:
        dlq_url = self.queues.get(channel, ("", ""))[1]
        if not dlq_url:
            return False
        self.client.send_message(
            QueueUrl=dlq_url,
            MessageBody=body,
            MessageAttributes={"reason": {"DataType": "String", "StringValue": reason}},
        )
        return True


class SqsLiveQueue:
    """app.live.ports.LiveQueue over SQS (an empty URL: no live channel in this deployment)."""

    def __init__(self, queue_url: str, client: SQSClient | None = None) -> None:
        self.queue_url = queue_url
        self._client = client

    @property
    def client(self) -> SQSClient:
        if self._client is None:
            self._client = aws_clients.sqs()
        return self._client

    def configured(self) -> bool:
        return bool(self.queue_url)

    def send(self, bodies: Sequence[str]) -> list[str]:
        if not bodies:
            return []
        try:
            return _send_batches(self.client, self.queue_url, bodies)
        except (ClientError, BotoCoreError):
            return list(bodies)  # the stream record is retried; a repeated signal costs a 304
