"""The scheduled Lambda: an EventBridge rule runs the sweep (reminders, timeouts, the next due time)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from aws_lambda_powertools.utilities.data_classes import EventBridgeEvent, event_source
from aws_lambda_powertools.utilities.typing import LambdaContext

from app.core.services import Services
from app.core.settings import get_settings
from app.core.telemetry import logger, metrics
from app.notify.delivery import Delivery
from app.sweep import sweep
from app.webhooks.queue import WebhookQueue


def _sweep_time(event: EventBridgeEvent, services: Services) -> datetime:
    # The rule's own timestamp, so a delayed or replayed invocation sweeps as of when it was due.
    try:
        return datetime.fromisoformat(event.time.replace("Z", "+00:00"))
    except (KeyError, TypeError, ValueError, AttributeError):
        logger.warning("scheduled event without a usable time; sweeping as of now")
        return services.clock()


@logger.inject_lambda_context(log_event=False)
@metrics.log_metrics
@event_source(data_class=EventBridgeEvent)
def lambda_handler(event: EventBridgeEvent, context: LambdaContext) -> dict[str, Any]:
    settings = get_settings()
    services = Services.from_settings(settings)
    at = _sweep_time(event, services)
    delivery = Delivery.from_settings(settings, clock=lambda: at)
    logger.info("sweep requested", extra={"rule": event.resources, "time": at.isoformat()})
    report = sweep(
        services,
        delivery,
        int(at.timestamp()),
        remaining_ms=context.get_remaining_time_in_millis,
        webhooks=WebhookQueue(settings.webhook_queue_url, settings.webhook_dlq_url),
    )
    logger.info("sweep done", extra=report.to_dict())
    return report.to_dict()
