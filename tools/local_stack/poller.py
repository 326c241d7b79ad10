"""The shape every local event source shares: daemon threads polling until ``stop()``, handing what they
find to a handler one event at a time.

The SNS and push taps, the S3 upload trigger, the schedules, the stream feeder and the SQS poller each say
what one poll does (a ``Loop``: one per thread); ``Poller`` runs the loops, pauses between polls, logs a
poll that raises and keeps going, and stops and joins the threads. ``run_handler`` is the one way they
invoke a function: under ``INVOKE_LOCK``, with a handler that cannot be imported or that raises logged,
never raised, as an event source just tries again later.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Self

from local_stack.runtime import INVOKE_LOCK, HandlerResolver, HandlerUnavailableError, LambdaContext


@dataclass(frozen=True, slots=True)
class Loop:
    """One thread of a poller: what it polls, and how long it pauses between polls."""

    #: The thread's name.
    thread: str
    #: What a poll does, for the line logged when one raises ("polling <queue>").
    what: str
    #: One poll; a truthy result means it found something, so the next poll follows at once.
    poll: Callable[[], object]
    #: The pause after a poll that found nothing (0: the poll itself waited, as an SQS long poll does).
    idle_seconds: float = 0.0
    #: The pause after a poll that raised.
    error_seconds: float = 1.0
    #: Pause ``idle_seconds`` before every poll, found something or not: a rate, as a schedule's.
    fixed_rate: bool = False


class Poller:
    """Runs the ``loops()`` of a local event source on daemon threads; ``stop()`` wakes and joins them."""

    def __init__(self, log: logging.Logger) -> None:
        self.log = log
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def loops(self) -> list[Loop]:
        """The threads to run: one per queue, stream or schedule the poller serves."""
        raise NotImplementedError

    def start(self) -> Self:
        for loop in self.loops():
            thread = threading.Thread(target=self._run, args=(loop,), name=loop.thread, daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout)
        self._threads.clear()

    def wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds``, cut short by ``stop()``; True once stopping."""
        return self._stop.wait(seconds)

    def failed(self, what: str, exc: Exception) -> None:
        """Log a poll that raised; the loop carries on after ``error_seconds``."""
        self.log.warning("%s failed: %s", what, exc)

    def _run(self, loop: Loop) -> None:
        pause = loop.idle_seconds if loop.fixed_rate else 0.0
        while not self._stop.wait(pause):
            try:
                found = loop.poll()
            except Exception as exc:
                if self._stop.is_set():
                    return
                self.failed(loop.what, exc)
                pause = loop.error_seconds
                continue
            pause = loop.idle_seconds if loop.fixed_rate or not found else 0.0

    def run_handler(
        self,
        name: str,
        resolve: HandlerResolver,
        event: dict[str, Any],
        context: LambdaContext,
        *,
        failure: str = "failed",
    ) -> tuple[bool, Any]:
        """``(True, result)`` of one call of the handler, or ``(False, None)``, logged, when it cannot be
        imported (``"<name> not run: …"``) or raises (``"<name> <failure>"`` and the traceback)."""
        try:
            handler = resolve()
        except HandlerUnavailableError as exc:
            self.log.warning("%s not run: %s", name, exc)
            return False, None
        try:
            with INVOKE_LOCK:
                return True, handler(event, context)
        except Exception:
            self.log.exception("%s %s", name, failure)
            return False, None
