"""DigestFunction: every hour (EventBridge), the daily digest of the players due at this UTC hour."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from aws_lambda_powertools.utilities.data_classes import EventBridgeEvent, event_source
from aws_lambda_powertools.utilities.typing import LambdaContext

from app import bootstrap
from app.core.telemetry import logger, metrics
from app.notify.email.digest import send_digests


@logger.inject_lambda_context(log_event=False)
@metrics.log_metrics(capture_cold_start_metric=True)
@event_source(data_class=EventBridgeEvent)
def lambda_handler(event: EventBridgeEvent, context: LambdaContext) -> dict[str, Any]:
    services = bootstrap.services()
    # The rule's own time, so a delayed or retried run sends the digests of the hour it was due for.
    try:
        at = datetime.fromisoformat(event.time.replace("Z", "+00:00"))
    except (KeyError, TypeError, ValueError, AttributeError):
        logger.warning("scheduled event without a usable time; sending as of now")
        at = services.clock()
    services = services.at(lambda: at)
    report = send_digests(services, at, remaining_ms=context.get_remaining_time_in_millis)
    logger.info("digests done", extra=report.to_dict())
    return report.to_dict()
