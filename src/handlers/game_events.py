"""Game events off the move path: one game change of the table's stream -> feed items and webhooks.

A DynamoDB Streams record handler with no function of its own yet: the Streams consumer
(`NotifyFunction`, handlers/notify.py) calls `handle_change` for each game item change, or this module's
`lambda_handler` can be the consumer itself (NEW_AND_OLD_IMAGES, ReportBatchItemFailures).
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from app import feed
from app.services import Services
from app.settings import get_settings
from app.telemetry import logger, metrics
from app.webhook_queue import WebhookQueue
from dixit.state import GameState

GAME_SK = "STATE"


def _state(image: dict[str, Any] | None) -> GameState | None:
    text = (image or {}).get("state")
    return GameState.from_json(text) if isinstance(text, str) else None


def handle_change(
    old_image: dict[str, Any] | None,
    new_image: dict[str, Any] | None,
    services: Services | None = None,
    queue: WebhookQueue | None = None,
) -> int:
    """Feed and webhooks for one change of a game item (deserialized images); how many events it made."""
    new = _state(new_image)
    if new is None:
        return 0  # a deleted game item: nothing happened in the game
    settings = get_settings()
    services = services or Services.from_settings(settings)
    queue = queue or WebhookQueue(settings.webhook_queue_url, settings.webhook_dlq_url)
    events = feed.record_change(services, queue, _state(old_image), new)
    if events:
        logger.info(
            "game events recorded",
            extra={"game_id": new.game_id, "version": new.version, "events": len(events)},
        )
    return len(events)


def record_handler(record: DynamoDBRecord) -> None:
    change = record.dynamodb
    if change is None or change.keys.get("sk") != GAME_SK:
        return  # players, memberships, rounds, feed items...
    handle_change(change.old_image, change.new_image)


@logger.inject_lambda_context(log_event=False)
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    processor = BatchProcessor(event_type=EventType.DynamoDBStreams)
    response = process_partial_response(
        event=event, record_handler=record_handler, processor=processor, context=context
    )
    return dict(response)
