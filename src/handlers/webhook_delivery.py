"""WebhookFunction: delivers the webhook queue's messages; a failed one is retried later, alone.

Partial batch failures (Powertools' batch utility, ReportBatchItemFailures on the event source): a
message whose delivery should be retried gets its visibility set to the backoff delay, then is reported
failed, so SQS redelivers it after that delay while the rest of the batch is deleted.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from app import bootstrap
from app.core.telemetry import logger, metrics
from app.services import Services
from app.webhooks.dispatch import Finished, RetryLater, WebhookMessage, deliver
from app.webhooks.ports import WebhookQueue
from handlers.sqs_batch import each_message


class DeliveryFailed(Exception):
    """This message will be retried after the delay its visibility now holds."""


def _handle(record: SQSRecord, services: Services, queue: WebhookQueue) -> None:
    try:
        message = WebhookMessage.from_json(record.body)
    except (ValueError, KeyError, TypeError):
        logger.error("malformed webhook message", extra={"message_id": record.message_id})
        if queue.dlq_url:
            queue.dead_letter(record.body, "malformed message")
        return
    attempt = int(record.attributes.approximate_receive_count or "1")
    result = deliver(services, queue, message, attempt=attempt)
    logger.info(
        "webhook delivery",
        extra={
            "webhook_id": message.webhook_id,
            "delivery_id": message.delivery_id,
            "attempt": attempt,
            "result": result.outcome if isinstance(result, Finished) else "retry",
        },
    )
    if isinstance(result, RetryLater):
        queue.retry_later(record.receipt_handle, result.delay_seconds)
        raise DeliveryFailed(f"retry in {result.delay_seconds}s")


@logger.inject_lambda_context(log_event=False)
@metrics.log_metrics(capture_cold_start_metric=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    services = bootstrap.services()
    queue = services.webhook_queue
    return each_message(event, context, lambda record: _handle(record, services, queue))
