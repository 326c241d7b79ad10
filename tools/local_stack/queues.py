"""SQS event sources locally: poll a queue, hand batches to its function, print each delivery.

What Lambda's event source mapping does, for the webhook queue: messages the function does not report
failed are deleted; a failed one is left alone, so it comes back when the visibility the function gave
it (the retry's backoff) runs out.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from functools import partial
from typing import Any

from local_stack.events import ACCOUNT_ID
from local_stack.poller import Loop, Poller
from local_stack.runtime import HandlerResolver, LambdaContext

LOG = logging.getLogger("local_stack.queues")


def sqs_event(messages: list[dict[str, Any]], queue_arn: str, region: str) -> dict[str, Any]:
    """The event an SQS event source mapping hands its function for these received messages."""
    return {
        "Records": [
            {
                "messageId": m["MessageId"],
                "receiptHandle": m["ReceiptHandle"],
                "body": m["Body"],
                "attributes": m.get("Attributes", {}),
                "messageAttributes": {},
                "md5OfBody": m["MD5OfBody"],
                "eventSource": "aws:sqs",
                "eventSourceARN": queue_arn,
                "awsRegion": region,
            }
            for m in messages
        ]
    }


def describe_delivery(message: dict[str, Any], failed: bool) -> str:
    """One line per webhook delivery attempt: event, webhook, attempt and whether it will be retried."""
    try:
        body = json.loads(message["Body"])
        event = body["event"]
        what = f"{event['type']} {event['id']} -> {body['webhook_id']} ({body['delivery_id']})"
    except (ValueError, KeyError, TypeError):
        what = f"unreadable message {message['MessageId']}"
    attempt = message.get("Attributes", {}).get("ApproximateReceiveCount", "1")
    return f"{what} attempt {attempt}: {'failed, retried after its backoff' if failed else 'done'}"


class QueuePoller(Poller):
    """One daemon thread polling `queue_url` for `function`, as an event source mapping would."""

    def __init__(
        self,
        sqs: Any,
        queue_url: str,
        function: str,
        handler: HandlerResolver,
        *,
        batch_size: int = 5,
        region: str = "us-east-1",
        report: Callable[[str], None] = print,
    ) -> None:
        super().__init__(LOG)
        self.sqs = sqs
        self.queue_url = queue_url
        self.function = function
        self.handler = handler
        self.batch_size = batch_size
        self.region = region
        self.report = report
        self.queue_arn = f"arn:aws:sqs:{region}:{ACCOUNT_ID}:{queue_url.rsplit('/', 1)[-1]}"

    def loops(self) -> list[Loop]:
        poll = partial(self.poll_once, wait_seconds=1)
        return [Loop(f"sqs-{self.function}", f"polling {self.queue_url}", poll, idle_seconds=0.5)]

    def failed(self, what: str, exc: Exception) -> None:
        LOG.exception("%s failed", what)

    def poll_once(self, wait_seconds: int = 0) -> int:
        """Receive one batch and run the function on it; how many messages it held."""
        messages = self.sqs.receive_message(
            QueueUrl=self.queue_url,
            MaxNumberOfMessages=self.batch_size,
            AttributeNames=["All"],
            WaitTimeSeconds=wait_seconds,
        ).get("Messages", [])
        if not messages:
            return 0
        event = sqs_event(messages, self.queue_arn, self.region)
        context = LambdaContext(function_name=self.function, timeout_seconds=60, region=self.region)
        ran, result = self.run_handler(
            self.function,
            self.handler,
            event,
            context,
            failure="failed; the batch comes back after its visibility timeout",
        )
        if not ran:
            return len(messages)
        failed = {f["itemIdentifier"] for f in (result or {}).get("batchItemFailures", [])}
        for message in messages:
            self.report(describe_delivery(message, message["MessageId"] in failed))
            if message["MessageId"] not in failed:
                self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"])
        return len(messages)
