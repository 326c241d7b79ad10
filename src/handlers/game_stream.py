"""GameStreamFunction: the game table's stream (NEW_AND_OLD_IMAGES), one game item change at a time,
through the game change flow (app.flows.game_change: the round history, the inbox, the feed and the
webhooks, the notifications, in that order and idempotently).

A record that fails is reported alone (ReportBatchItemFailures) so the rest of the batch is not
delivered twice; its retry repeats nothing anyone sees twice (app.flows.game_change says how).
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from app import bootstrap
from app.core.telemetry import logger, metrics
from app.flows.game_change import GameChange, on_game_change
from app.notify.delivery import Delivery
from app.services import Services

GAME_SK = "STATE"
processor = BatchProcessor(event_type=EventType.DynamoDBStreams)


def record_handler(record: DynamoDBRecord) -> None:
    change = record.dynamodb
    if change is None or change.keys.get("sk") != GAME_SK:
        return  # players, memberships, rounds, devices...: the event source filter should drop these
    consume(change.old_image, change.new_image, bootstrap.services())


def consume(old_image: dict[str, Any], new_image: dict[str, Any], services: Services) -> None:
    """One game item's change (deserialized images) through `services`: also what the in-memory
    simulation season (tests/simulation) runs for each change its store records."""
    change = GameChange.of_images(old_image, new_image)  # each state decoded once, here
    on_game_change(services, change, lambda: Delivery.of(services))


@logger.inject_lambda_context(log_event=False)
@metrics.log_metrics(capture_cold_start_metric=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    response = process_partial_response(
        event=event, record_handler=record_handler, processor=processor, context=context
    )
    return dict(response)
