"""NotifyDeliveryFunction: sends the notification outbox's messages, from one queue per channel (email,
web push, device push); a failed one is retried later, alone.

Partial batch failures (Powertools' batch utility, ReportBatchItemFailures on each event source), as
WebhookFunction does: a message whose send should be retried gets its visibility set to the backoff
delay, then is reported failed, so SQS redelivers it after that delay while the rest of the batch is
deleted. Sends are claimed by dedupe id (app.notify.outbox_delivery), so a redelivery sends nothing twice.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from app import bootstrap
from app.core.telemetry import count, logger, metrics
from app.notify.outbox import OutboxMessage
from app.notify.outbox_delivery import Finished, RetryLater, deliver
from app.services import Services
from handlers.sqs_batch import each_message


class SendFailed(Exception):
    """This message will be retried after the delay its visibility now holds."""


def handle(record: SQSRecord, services: Services) -> None:
    try:
        message = OutboxMessage.from_json(record.body)
    except (ValueError, KeyError, TypeError):
        # Nothing could ever send it: kept in the log, not retried (it would fail the same way).
        logger.error("malformed notification message", extra={"message_id": record.message_id})
        count("NotifyMalformed")
        return
    attempt = int(record.attributes.approximate_receive_count or "1")
    result = deliver(services, message, attempt=attempt)
    logger.info(
        "notification send",
        extra={
            "channel": message.channel.value,
            "send_id": message.send_id,
            "attempt": attempt,
            "result": result.outcome if isinstance(result, Finished) else "retry",
        },
    )
    if isinstance(result, RetryLater):
        services.notification_queue.retry_later(message.channel, record.receipt_handle, result.delay_seconds)
        raise SendFailed(f"retry in {result.delay_seconds}s")


@logger.inject_lambda_context(log_event=False)
@metrics.log_metrics(capture_cold_start_metric=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    services = bootstrap.services()
    return each_message(event, context, lambda record: handle(record, services))
