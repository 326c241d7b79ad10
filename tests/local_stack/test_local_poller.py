"""local_stack.poller: the loop, start/stop and handler call that every local event source shares."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from local_stack.poller import Loop, Poller
from local_stack.runtime import HandlerUnavailableError, LambdaContext

LOG = logging.getLogger("test_local_poller")


class OneLoop(Poller):
    def __init__(
        self, poll: Callable[[], object], *, idle_seconds: float = 0.01, fixed_rate: bool = False
    ) -> None:
        super().__init__(LOG)
        self.poll, self.idle_seconds, self.fixed_rate = poll, idle_seconds, fixed_rate

    def loops(self) -> list[Loop]:
        return [Loop("test-poller", "polling the test", self.poll, self.idle_seconds, 0.01, self.fixed_rate)]


def wait_until(done: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 30  # generous: a bound on waiting, not on speed
    while not done() and time.monotonic() < deadline:
        time.sleep(0.01)


def test_a_poll_that_raises_is_logged_and_the_loop_carries_on(caplog: pytest.LogCaptureFixture) -> None:
    calls: list[int] = []

    def poll() -> int:
        calls.append(len(calls))
        if len(calls) == 1:
            raise RuntimeError("boom")
        return 0

    with caplog.at_level(logging.WARNING, logger=LOG.name):
        poller = OneLoop(poll).start()
        try:
            wait_until(lambda: len(calls) >= 3)
        finally:
            poller.stop()
    assert len(calls) >= 3
    assert "polling the test failed: boom" in caplog.text
    count = len(calls)
    time.sleep(0.1)
    assert len(calls) == count  # stopped means stopped


def test_a_fixed_rate_loop_waits_before_its_first_poll_and_stop_cuts_the_wait_short() -> None:
    calls: list[int] = []
    poller = OneLoop(lambda: calls.append(1), idle_seconds=600, fixed_rate=True).start()
    poller.stop(timeout=30)
    assert calls == []
    # Had stop not cut the 600 s wait short, the thread would still be alive after its 30 s join.
    assert not any(thread.name == "test-poller" for thread in threading.enumerate())


def test_run_handler_logs_what_cannot_run_and_never_raises(caplog: pytest.LogCaptureFixture) -> None:
    poller = OneLoop(lambda: 0)
    context = LambdaContext(function_name="TestFunction")

    def unavailable() -> Any:
        raise HandlerUnavailableError("cannot import nope")

    def raising(event: dict[str, Any], context: Any) -> Any:
        raise ValueError("bad event")

    with caplog.at_level(logging.INFO, logger=LOG.name):
        ran = poller.run_handler("TestFunction", lambda: lambda event, _: event["n"] + 1, {"n": 1}, context)
        unimportable = poller.run_handler("TestFunction", unavailable, {}, context)
        failing = poller.run_handler("TestFunction", lambda: raising, {}, context, failure="fell over")
    assert (ran, unimportable, failing) == ((True, 2), (False, None), (False, None))
    assert "TestFunction not run: cannot import nope" in caplog.text
    assert "TestFunction fell over" in caplog.text
    assert "ValueError: bad event" in caplog.text  # the traceback is logged too
