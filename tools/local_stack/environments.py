"""Lambda execution environments as worker processes, so the gateway serves requests concurrently.

On Lambda, concurrent requests run in separate execution environments, each one event at a time. The
handlers rely on that: Powertools' resolver, Logger and Metrics keep per-invocation state in module
globals. In-process, the gateway therefore runs one handler call at a time (``INVOKE_LOCK``); with
``--workers N`` each call goes to one of N spawned processes instead, which import the handler once and
stay warm, as execution environments do. They reach the same twin through ``AWS_ENDPOINT_URL``.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from local_stack.runtime import Handler, LambdaContext, import_handler

#: The handlers a worker process has imported, by ``module.function``.
_IMPORTED: dict[str, Handler] = {}


def _invoke(spec: str, code_dirs: Sequence[str], event: dict[str, Any], context: LambdaContext) -> Any:
    handler = _IMPORTED.get(spec)
    if handler is None:
        handler = _IMPORTED[spec] = import_handler(spec, [Path(directory) for directory in code_dirs])
    return handler(event, context)


class ExecutionEnvironments:
    """A pool of ``count`` worker processes; ``invoke`` blocks until one has run the event."""

    def __init__(self, count: int, handlers: Mapping[str, str], code_dirs: Sequence[Path]) -> None:
        """``handlers`` maps a function's logical id to its ``Handler`` string."""
        self.count = count
        self.handlers = dict(handlers)
        self.code_dirs = [str(directory) for directory in code_dirs]
        # spawn, not fork: the parent runs threads (HTTP, moto, schedules) that fork would copy mid-flight.
        self._pool = ProcessPoolExecutor(count, mp_context=multiprocessing.get_context("spawn"))

    def invoke(self, function: str, event: dict[str, Any], context: LambdaContext) -> Any:
        return self._pool.submit(_invoke, self.handlers[function], self.code_dirs, event, context).result()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
