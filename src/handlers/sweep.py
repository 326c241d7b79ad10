"""The scheduled Lambda: an EventBridge rule runs the sweep (reminders, timeouts, the next due time)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from aws_lambda_powertools.utilities.data_classes import EventBridgeEvent, event_source
from aws_lambda_powertools.utilities.typing import LambdaContext

from app import bootstrap
from app.core.telemetry import logger, metrics
from app.flows.sweep import sweep
from app.notify.delivery import Delivery
from app.services import Services


def _sweep_time(event: EventBridgeEvent, services: Services) -> datetime:
    # The rule's own timestamp, so a delayed or replayed invocation sweeps as of when it was due.
    try:
        return datetime.fromisoformat(event.time.replace("Z", "+00:00"))
    except (KeyError, TypeError, ValueError, AttributeError):
        logger.warning("scheduled event without a usable time; sweeping as of now")
        return services.clock()


@logger.inject_lambda_context(log_event=False)
@metrics.log_metrics(capture_cold_start_metric=True)
@event_source(data_class=EventBridgeEvent)
def lambda_handler(event: EventBridgeEvent, context: LambdaContext) -> dict[str, Any]:
    services = bootstrap.services()
    at = _sweep_time(event, services)
    services = services.at(lambda: at)
    delivery = Delivery.of(services)
    logger.info("sweep requested", extra={"rule": event.resources, "time": at.isoformat()})
    report = sweep(
        services,
        delivery,
        int(at.timestamp()),
        remaining_ms=context.get_remaining_time_in_millis,
        webhooks=services.webhook_queue,
    )
    logger.info("sweep done", extra=report.to_dict())
    return report.to_dict()
