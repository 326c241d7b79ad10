"""MailEventsFunction: SES bounce and complaint events (EventBridge) suppress the addresses they name.

Also takes the same events delivered through an SNS topic (`Records[].Sns.Message`), the other event
destination SES offers. A malformed record is logged and skipped: retrying it would never help.
"""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from app import bootstrap
from app.core.telemetry import logger, metrics
from app.notify.email.mail_events import record_mail_event


def _details(event: dict[str, Any]) -> list[dict[str, Any]]:
    if isinstance(event.get("detail"), dict):
        return [event["detail"]]
    found = []
    for record in event.get("Records") or []:
        try:
            message = json.loads(record["Sns"]["Message"])
        except (KeyError, TypeError, ValueError):
            logger.warning("a mail event record without an SES message")
            continue
        if isinstance(message, dict):
            found.append(message)
    return found


@logger.inject_lambda_context(log_event=False)
@metrics.log_metrics(capture_cold_start_metric=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, int]:
    services = bootstrap.services()
    suppressed = sum(record_mail_event(services, detail) for detail in _details(event))
    return {"suppressed": suppressed}
