"""SQS event sources locally: poll a queue, hand batches to its function, print each delivery.

What Lambda's event source mapping does, for every ``SQS`` event of the template (``queue_pollers``):
receive up to ``BatchSize`` messages, hand them to the function as an SQS event (attributes and message
attributes as Lambda gives them), then delete what succeeded. A handler that raises fails the whole
batch; with ``ReportBatchItemFailures``, the ``batchItemFailures`` it returns fail those messages only (an
identifier not in the batch fails it all, as Lambda does). A failed message is left alone, so it comes
back when its visibility (the queue's, or the backoff the function gave it) runs out, and the twin moves
it to the queue's dead-letter queue once it was received ``maxReceiveCount`` times (the redrive policy
``local_stack.resources`` creates it with).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from local_stack.events import ACCOUNT_ID
from local_stack.poller import Loop, Poller
from local_stack.runtime import HandlerResolver, LambdaContext
from local_stack.template import FunctionSpec

LOG = logging.getLogger("local_stack.queues")


def _message_attribute(value: Mapping[str, Any]) -> dict[str, Any]:
    """One message attribute as Lambda's SQS event spells it (camelCase, list fields present)."""
    return {
        "stringValue": value.get("StringValue"),
        "binaryValue": value.get("BinaryValue"),
        "stringListValues": list(value.get("StringListValues") or []),
        "binaryListValues": list(value.get("BinaryListValues") or []),
        "dataType": value.get("DataType", "String"),
    }


def sqs_event(messages: list[dict[str, Any]], queue_arn: str, region: str) -> dict[str, Any]:
    """The event an SQS event source mapping hands its function for these received messages."""
    return {
        "Records": [
            {
                "messageId": m["MessageId"],
                "receiptHandle": m["ReceiptHandle"],
                "body": m["Body"],
                "attributes": m.get("Attributes", {}),
                "messageAttributes": {
                    name: _message_attribute(value)
                    for name, value in (m.get("MessageAttributes") or {}).items()
                },
                "md5OfBody": m["MD5OfBody"],
                "eventSource": "aws:sqs",
                "eventSourceARN": queue_arn,
                "awsRegion": region,
            }
            for m in messages
        ]
    }


def _what(message: dict[str, Any]) -> str:
    try:
        body = json.loads(message["Body"])
    except (ValueError, KeyError, TypeError):
        return f"message {message['MessageId']}"
    if isinstance(body, dict):
        event = body.get("event")
        if isinstance(event, dict) and {"type", "id"} <= set(event) and "webhook_id" in body:
            return f"{event['type']} {event['id']} -> {body['webhook_id']} ({body.get('delivery_id')})"
        named = [f"{key}={body[key]}" for key in ("kind", "type", "dedupe_id", "id") if key in body]
        if named:
            return " ".join(str(part) for part in named)
    return f"message {message['MessageId']}"


def describe_delivery(message: dict[str, Any], failed: bool) -> str:
    """One line per delivery attempt: what the message is, its attempt and whether it comes back."""
    attempt = message.get("Attributes", {}).get("ApproximateReceiveCount", "1")
    outcome = "failed, retried after its backoff" if failed else "done"
    return f"{_what(message)} attempt {attempt}: {outcome}"


def failed_ids(result: Any, message_ids: list[str], *, report_items: bool) -> set[str]:
    """The messages of a batch that failed, from the function's result (it ran without raising)."""
    if not report_items:
        return set()  # Lambda reads no response: the batch succeeded
    failures = (result or {}).get("batchItemFailures") if isinstance(result, dict) else None
    if not failures:
        return set()
    named = {f.get("itemIdentifier") if isinstance(f, dict) else None for f in failures}
    if not named <= set(message_ids):
        return set(message_ids)  # an empty or unknown identifier: Lambda fails the whole batch
    return {str(name) for name in named}


class QueuePoller(Poller):
    """One daemon thread polling `queue_url` for `function`, as an event source mapping would."""

    def __init__(
        self,
        sqs: Any,
        queue_url: str,
        function: str,
        handler: HandlerResolver,
        *,
        batch_size: int = 10,
        report_batch_item_failures: bool = False,
        timeout_seconds: float = 60,
        region: str = "us-east-1",
        report: Callable[[str], None] = print,
    ) -> None:
        super().__init__(LOG)
        self.sqs = sqs
        self.queue_url = queue_url
        self.function = function
        self.handler = handler
        # SQS hands out at most 10 messages per receive (the mapping's larger batches gather several).
        self.batch_size = max(1, min(batch_size, 10))
        self.report_batch_item_failures = report_batch_item_failures
        self.timeout_seconds = timeout_seconds
        self.region = region
        self.report = report
        self.queue_arn = f"arn:aws:sqs:{region}:{ACCOUNT_ID}:{queue_url.rsplit('/', 1)[-1]}"

    def loops(self) -> list[Loop]:
        # A long poll, so no pause after an empty one: the poll itself waited, and a message sent meanwhile
        # is received at once (a pause here was up to half a second more on every live signal).
        poll = partial(self.poll_once, wait_seconds=1)
        return [Loop(f"sqs-{self.function}", f"polling {self.queue_url}", poll)]

    def failed(self, what: str, exc: Exception) -> None:
        LOG.exception("%s failed", what)

    def poll_once(self, wait_seconds: int = 0) -> int:
        """Receive one batch and run the function on it; how many messages it held."""
        messages = self.sqs.receive_message(
            QueueUrl=self.queue_url,
            MaxNumberOfMessages=self.batch_size,
            AttributeNames=["All"],
            MessageAttributeNames=["All"],
            WaitTimeSeconds=wait_seconds,
        ).get("Messages", [])
        if not messages:
            return 0
        event = sqs_event(messages, self.queue_arn, self.region)
        context = LambdaContext(
            function_name=self.function, timeout_seconds=self.timeout_seconds, region=self.region
        )
        ran, result = self.run_handler(
            self.function,
            self.handler,
            event,
            context,
            failure="failed; the batch comes back after its visibility timeout",
        )
        ids = [message["MessageId"] for message in messages]
        report_items = self.report_batch_item_failures
        failed = failed_ids(result, ids, report_items=report_items) if ran else set(ids)
        for message in messages:
            self.report(describe_delivery(message, message["MessageId"] in failed))
            if message["MessageId"] not in failed:
                self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"])
        return len(messages)


def report_label(function: str) -> str:
    """``WebhookFunction`` prints ``[webhook]`` lines, ``EmailDeliveryFunction`` ``[email-delivery]``."""
    stem = function.removesuffix("Function") or function
    return re.sub(r"(?<!^)(?=[A-Z])", "-", stem).lower()


def _say_as(say: Callable[[str], None], label: str, line: str) -> None:
    say(f"[{label}] {line}")


def queue_pollers(
    sqs: Any,
    specs: Mapping[str, FunctionSpec],
    resources: Mapping[str, str],
    handlers: Mapping[str, HandlerResolver],
    *,
    region: str = "us-east-1",
    say: Callable[[str], None] = print,
) -> list[QueuePoller]:
    """One poller for each enabled ``SQS`` event of the template on a queue the stack created."""
    return [
        QueuePoller(
            sqs,
            resources[event.queue],
            logical_id,
            handlers[logical_id],
            batch_size=event.batch_size,
            report_batch_item_failures=event.report_batch_item_failures,
            timeout_seconds=float(spec.timeout),
            region=region,
            report=partial(_say_as, say, report_label(logical_id)),
        )
        for logical_id, spec in specs.items()
        for event in spec.queues
        if event.enabled and event.queue in resources and logical_id in handlers
    ]
