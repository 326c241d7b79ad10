"""Run each ``Schedule`` event of the template on its rate, with a real EventBridge "Scheduled Event".

The rates run on the stack's clock (``local_stack.clock``), aligned to it (``rate(1 hour)`` on the hour,
``rate(5 minutes)`` at :00, :05...), and a developer may move that clock forward: a move past a job's next
run fires it at once, once for each period the move passed (up to ``MAX_CATCH_UP``, the latest ones),
each with the time that run was due, as EventBridge would have over that stretch. So an hourly digest
moved six hours sends the digests of each of those hours, and the sweep sees each deadline pass.
"""

from __future__ import annotations

import logging
import math
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

from local_stack.events import ACCOUNT_ID
from local_stack.poller import Loop, Poller
from local_stack.runtime import HandlerResolver, LambdaContext
from local_stack.template import FunctionSpec, ScheduleSpec, parse_rate

LOG = logging.getLogger("local_stack.schedules")

#: The most runs one move of the clock fires per job (a day of an hourly digest).
MAX_CATCH_UP = 24
#: How often each job looks at the clock: a move is acted on within this many seconds.
TICK_SECONDS = 0.25


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
    #: When the next run is due on the stack's clock (set when the runner starts).
    next_due: datetime | None = field(default=None, compare=False)


def interval_for(schedule: ScheduleSpec, override_seconds: float | None) -> float:
    """The schedule's period: ``override_seconds`` if given, else its ``rate(...)``, else 5 minutes."""
    if override_seconds is not None:
        return override_seconds
    try:
        return parse_rate(schedule.expression)
    except ValueError as exc:
        LOG.warning("%s; running %s every 300 s instead", exc, schedule.name)
        return 300.0


def aligned_after(now: datetime, interval_seconds: float) -> datetime:
    """The first multiple of ``interval_seconds`` since the epoch after ``now``: ``rate(1 hour)`` runs on
    the hour, ``rate(5 minutes)`` at :00, :05..., so a move to 08:00 runs the 08:00 digest at once."""
    periods = math.floor(now.timestamp() / interval_seconds) + 1
    return datetime.fromtimestamp(periods * interval_seconds, UTC)


def due_runs(next_due: datetime, now: datetime, interval_seconds: float) -> list[datetime]:
    """The times of the runs due by ``now`` from ``next_due`` on, every ``interval_seconds``: the latest
    ``MAX_CATCH_UP`` of them."""
    if now < next_due:
        return []
    period = timedelta(seconds=interval_seconds)
    missed = int((now - next_due) / period) + 1
    first = max(0, missed - MAX_CATCH_UP)
    return [next_due + period * k for k in range(first, missed)]


class ScheduleRunner(Poller):
    """One daemon thread per scheduled function, running it every ``interval_seconds`` of ``clock``."""

    def __init__(
        self,
        jobs: list[ScheduledFunction],
        *,
        region: str = "us-east-1",
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        super().__init__(LOG)
        self.jobs = jobs
        self.region = region
        self.clock = clock

    def loops(self) -> list[Loop]:
        now = self.clock()
        for job in self.jobs:
            job.next_due = aligned_after(now, job.interval_seconds)
        return [
            Loop(
                f"schedule-{job.function.logical_id}",
                rule_name(job.function.logical_id, job.schedule.name),
                partial(self.tick, job),
                min(TICK_SECONDS, job.interval_seconds),
                job.interval_seconds,
                fixed_rate=True,
            )
            for job in self.jobs
        ]

    def tick(self, job: ScheduledFunction) -> int:
        """Run what is due of ``job`` by the clock now; how many runs that was."""
        now = self.clock()
        period = timedelta(seconds=job.interval_seconds)
        if job.next_due is None or job.next_due - now > period:
            job.next_due = aligned_after(now, job.interval_seconds)  # the clock was reset meanwhile
        fired = 0
        for when in due_runs(job.next_due, now, job.interval_seconds):
            if self.wait(0) or when > self.clock():
                break  # stopping, or the clock was reset while catching up: not a run from the future
            self.run_once(job, when=when)
            job.next_due = when + period
            fired += 1
        return fired

    def run_once(self, job: ScheduledFunction, *, when: datetime | None = None) -> Any:
        """Invoke the job's handler once, for the run due at ``when`` (default: the clock's now); errors
        are logged, never raised (EventBridge just retries)."""
        rule = rule_name(job.function.logical_id, job.schedule.name)
        event = scheduled_event(rule, region=self.region, when=when or self.clock())
        context = LambdaContext.for_function(job.function, self.region)
        ran, result = self.run_handler(rule, job.handler, event, context)
        if ran:
            LOG.info("%s ran: %s", rule, result)
        return result
