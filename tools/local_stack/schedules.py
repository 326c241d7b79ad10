"""Run each ``Schedule`` event of the template on its rate, with a real EventBridge "Scheduled Event"."""

from __future__ import annotations

import logging
import threading
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from local_stack.events import ACCOUNT_ID
from local_stack.runtime import (
    INVOKE_LOCK,
    HandlerResolver,
    HandlerUnavailableError,
    LambdaContext,
)
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


class ScheduleRunner:
    """One daemon thread per scheduled function; ``stop()`` wakes and joins them all."""

    def __init__(self, jobs: list[ScheduledFunction], *, region: str = "us-east-1") -> None:
        self.jobs = jobs
        self.region = region
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def start(self) -> ScheduleRunner:
        for job in self.jobs:
            thread = threading.Thread(
                target=self._loop, args=(job,), name=f"schedule-{job.function.logical_id}", daemon=True
            )
            thread.start()
            self._threads.append(thread)
        return self

    def run_once(self, job: ScheduledFunction) -> Any:
        """Invoke the job's handler once; errors are logged, never raised (EventBridge just retries)."""
        rule = rule_name(job.function.logical_id, job.schedule.name)
        try:
            handler = job.handler()
        except HandlerUnavailableError as exc:
            LOG.warning("%s not run: %s", rule, exc)
            return None
        context = LambdaContext(
            function_name=job.function.logical_id,
            memory_limit_in_mb=job.function.memory_size,
            timeout_seconds=job.function.timeout,
            region=self.region,
        )
        try:
            with INVOKE_LOCK:
                result = handler(scheduled_event(rule, region=self.region), context)
        except Exception:
            LOG.exception("%s failed", rule)
            return None
        LOG.info("%s ran: %s", rule, result)
        return result

    def _loop(self, job: ScheduledFunction) -> None:
        while not self._stop.wait(job.interval_seconds):
            self.run_once(job)

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout)
        self._threads.clear()
