"""LiveDeliveryFunction: posts each change of a game the live queue carries to the connections that
should hear of it (app.live.fanout); a message some post failed for is retried alone, through the queue.

A repeated message costs a client a 304 (app.live.signals), so a retry needs no ledger of what went.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from aws_lambda_powertools.utilities.typing import LambdaContext

from app import bootstrap
from app.core.telemetry import count, logger, metrics
from app.live.fanout import tell
from app.live.signals import Announcement
from app.services import Services
from handlers.sqs_batch import each_message


class PostsFailed(Exception):
    """Some connection could not be told for now: the queue redelivers the message."""


def handle(record: SQSRecord, services: Services) -> None:
    try:
        change = Announcement.from_json(record.body)
    except (ValueError, KeyError, TypeError):
        logger.error("malformed live message", extra={"message_id": record.message_id})
        count("LiveMalformed")
        return
    told = tell(services, change, now=services.now_epoch())
    for outcome, times in told.outcomes.items():
        count(f"LivePosts_{outcome.value}", times)
    logger.info(
        "live change told",
        extra={"game_id": change.game_id, "version": change.version, "posts": dict(told.outcomes)},
    )
    if told.failed:
        raise PostsFailed(f"{change.dedupe_id}: some posts failed")


@logger.inject_lambda_context(log_event=False)
@metrics.log_metrics()
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    services = bootstrap.services()
    return each_message(event, context, lambda record: handle(record, services))
