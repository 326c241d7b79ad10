"""What the Lambda runtime gives a handler, locally: the import of its ``Handler`` string, its context
object and one event at a time.

The gateway, the execution environments, ``invoke`` and every poller run handlers through these. This
module imports none of them, so each of them imports it rather than one another.
"""

from __future__ import annotations

import importlib
import sys
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from local_stack.events import ACCOUNT_ID
from local_stack.template import FunctionSpec

Handler = Callable[[dict[str, Any], Any], Any]
HandlerResolver = Callable[[], Handler]


#: Held around every handler call. Like one Lambda execution environment, the local stack runs one event
#: at a time: handlers keep per-invocation state in module globals (Powertools' resolver keeps
#: ``current_event``, Logger and Metrics keep keys and metric sets), which concurrent threads would mix up.
INVOKE_LOCK = threading.RLock()


class HandlerUnavailableError(RuntimeError):
    """The handler named by the template cannot be imported (yet)."""


def import_handler(spec: str, code_dirs: Sequence[Path] = ()) -> Handler:
    """Import ``module.function`` the way the Lambda runtime reads a ``Handler`` string."""
    for directory in code_dirs:
        if str(directory) not in sys.path:
            sys.path.insert(0, str(directory))
    module_name, _, function_name = spec.rpartition(".")
    if not module_name:
        raise HandlerUnavailableError(f"handler {spec!r} is not of the form module.function")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:
        raise HandlerUnavailableError(f"cannot import {module_name}: {type(exc).__name__}: {exc}") from exc
    handler = getattr(module, function_name, None)
    if not callable(handler):
        raise HandlerUnavailableError(f"{module_name} has no callable {function_name!r}")
    result: Handler = handler
    return result


def lazy_handler(spec: str, code_dirs: Sequence[Path] = ()) -> HandlerResolver:
    """A resolver importing ``spec`` on first use, retrying on later requests while the import fails."""
    cache: list[Handler] = []

    def resolve() -> Handler:
        if not cache:
            cache.append(import_handler(spec, code_dirs))
        return cache[0]

    return resolve


@dataclass
class LambdaContext:
    """Stands in for the Lambda runtime's context object (what Powertools and handlers read)."""

    function_name: str
    memory_limit_in_mb: int = 512
    timeout_seconds: float = 10.0
    function_version: str = "$LATEST"
    region: str = "us-east-1"
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    _deadline: float = field(default=0.0, repr=False)

    def __post_init__(self) -> None:
        self._deadline = time.monotonic() + self.timeout_seconds
        self.invoked_function_arn = f"arn:aws:lambda:{self.region}:{ACCOUNT_ID}:function:{self.function_name}"
        self.log_group_name = f"/aws/lambda/{self.function_name}"
        self.log_stream_name = f"{datetime.now(UTC):%Y/%m/%d}/[$LATEST]{uuid.uuid4().hex}"
        self.identity = None
        self.client_context = None

    @classmethod
    def for_function(cls, spec: FunctionSpec, region: str) -> LambdaContext:
        """The context of one call of the template's function: its memory size and timeout."""
        return cls(
            function_name=spec.logical_id,
            memory_limit_in_mb=spec.memory_size,
            timeout_seconds=float(spec.timeout),
            region=region,
        )

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self._deadline - time.monotonic()) * 1000))
