"""The DynamoDB Streams consumer: writes each scored round's history item, keeps each member's inbox
entry up to date, tells players when a game starts waiting on them, or ends, or when a game they finished
opens its rematch, and writes each change's events to the feed and to the webhooks that want them.

The move path stays one conditional write; this function reads the game item's old and new images
from the table's stream (NEW_AND_OLD_IMAGES). A record that fails is reported alone
(ReportBatchItemFailures) so the rest of the batch is not delivered twice. Its retry rewrites no entry
(each write is conditional on the entry's version), puts the same round item (app.games.history), writes
the same feed items and enqueues the same delivery ids (app.feed.changes), and redelivers with the same
dedupe ids.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from app import bootstrap
from app.core.telemetry import count, logger, metrics
from app.feed.changes import handle_change
from app.games import history, inbox, state_codec
from app.notify.delivery import Delivery
from app.notify.messages import changes
from app.notify.rematch_news import invitations
from app.services import Services
from dixit.state import GameState

GAME_SK = "STATE"
processor = BatchProcessor(event_type=EventType.DynamoDBStreams)


def _state(image: dict[str, Any]) -> GameState | None:
    return state_codec.stored(image)


def record_handler(record: DynamoDBRecord) -> None:
    change = record.dynamodb
    if change is None or change.keys.get("sk") != GAME_SK:
        return  # players, memberships, rounds, devices...: the event source filter should drop these
    consume(change.old_image, change.new_image, bootstrap.services())


def consume(old_image: dict[str, Any], new_image: dict[str, Any], services: Services) -> None:
    """One game item's change (deserialized images) through `services`: also what the in-memory
    simulation season (tests/simulation) runs for each change its store records."""
    old, new = _state(old_image), _state(new_image)
    updated_at = new_image.get("updated_at") if new is not None else None
    # The round's history first (whoever hears of the round can read it), then the inbox, then feed and
    # webhooks, then SNS: a failure retries the record, and what went before is then written already
    # (idempotently), while nobody was told of it twice.
    if history.record(services.games, old, new, history.carried_reveal(old_image, new_image)):
        count("RoundsRecorded")
    refreshed = inbox.refresh(services.inbox, old, new, str(updated_at or ""))
    if refreshed:
        count("InboxEntriesWritten", refreshed)
    handle_change(old_image, new_image, services)
    notifications = changes(old, new) + invitations(services, old, new, new_image)
    if not notifications:
        return
    outcomes = Delivery.of(services).deliver_all(notifications)
    logger.info(
        "game change notified",
        extra={
            "game_id": notifications[0].game_id,
            "kinds": sorted({n.kind.value for n in notifications}),
            "outcomes": {str(k): v for k, v in outcomes.items()},
        },
    )


@logger.inject_lambda_context(log_event=False)
@metrics.log_metrics(capture_cold_start_metric=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    response = process_partial_response(
        event=event, record_handler=record_handler, processor=processor, context=context
    )
    return dict(response)
