"""A queue consumer's batch, message by message: the ones whose handling raised are reported failed
(ReportBatchItemFailures), so SQS redelivers those alone and deletes the rest.

A batch whose every message failed is still an answer (each redelivered on its own schedule), not an
error: the function's invocation succeeds either way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from aws_lambda_powertools.utilities.typing import LambdaContext


def each_message(
    event: dict[str, Any], context: LambdaContext, handle: Callable[[SQSRecord], None]
) -> dict[str, Any]:
    """`handle` every message of the batch; the answer lists the ones it raised for."""
    processor = BatchProcessor(event_type=EventType.SQS, raise_on_entire_batch_failure=False)
    response = process_partial_response(
        event=event, record_handler=handle, processor=processor, context=context
    )
    return dict(response)
