"""Run each ``Schedule`` event of the template on its rate, with a real EventBridge "Scheduled Event"."""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any

from local_stack.events import ACCOUNT_ID
from local_stack.poller import Loop, Poller
from local_stack.runtime import HandlerResolver, LambdaContext
from local_stack.template import FunctionSpec, ScheduleSpec, parse_rate

LOG = logging.getLogger("local_stack.schedules")


def rule_name(function: str, schedule: str) -> str:
    """The rule name SAM generates for a ``Schedule`` event: ``<Function><Event>``."""
    return f"{function}{schedule}"


def scheduled_event(rule: str, *, region: str = "us-east-1", when: datetime | None = None) -> dict[str, Any]:
    """The event EventBridge sends a Lambda target of a scheduled rule."""
    moment = (when or datetime.now(UTC)).replace(microsecond=0)
    return {
        "version": "0",
        "id": str(uuid.uuid4()),
        "detail-type": "Scheduled Event",
        "source": "aws.events",
        "account": ACCOUNT_ID,
        "time": moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "region": region,
        "resources": [f"arn:aws:events:{region}:{ACCOUNT_ID}:rule/{rule}"],
        "detail": {},
    }


@dataclass
class ScheduledFunction:
    function: FunctionSpec
    schedule: ScheduleSpec
    handler: HandlerResolver
    interval_seconds: float


def interval_for(schedule: ScheduleSpec, override_seconds: float | None) -> float:
    """The schedule's period: ``override_seconds`` if given, else its ``rate(...)``, else 5 minutes."""
    if override_seconds is not None:
        return override_seconds
    try:
        return parse_rate(schedule.expression)
    except ValueError as exc:
        LOG.warning("%s; running %s every 300 s instead", exc, schedule.name)
        return 300.0


class ScheduleRunner(Poller):
    """One daemon thread per scheduled function, each running it every ``interval_seconds``."""

    def __init__(self, jobs: list[ScheduledFunction], *, region: str = "us-east-1") -> None:
        super().__init__(LOG)
        self.jobs = jobs
        self.region = region

    def loops(self) -> list[Loop]:
        return [
            Loop(
                f"schedule-{job.function.logical_id}",
                rule_name(job.function.logical_id, job.schedule.name),
                partial(self.run_once, job),
                job.interval_seconds,
                job.interval_seconds,
                fixed_rate=True,
            )
            for job in self.jobs
        ]

    def run_once(self, job: ScheduledFunction) -> Any:
        """Invoke the job's handler once; errors are logged, never raised (EventBridge just retries)."""
        rule = rule_name(job.function.logical_id, job.schedule.name)
        event = scheduled_event(rule, region=self.region)
        context = LambdaContext.for_function(job.function, self.region)
        ran, result = self.run_handler(rule, job.handler, event, context)
        if ran:
            LOG.info("%s ran: %s", rule, result)
        return result
