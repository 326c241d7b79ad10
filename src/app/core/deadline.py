"""How long a request may keep trying: the invocation's remaining time, handed down as a plain deadline.

The handler turns its LambdaContext into a Deadline; use cases only ever see the Deadline, so they run
the same in tests, benchmarks and the local stack.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import field
from typing import Protocol

from dixit.lean_dataclass import dataclass

# Without an invocation to bound it (tests, scripts), a use case may retry about as long as a Lambda could.
DEFAULT_SECONDS = 8.0


@dataclass(frozen=True, slots=True)
class Deadline:
    at: float  # on `clock`'s scale
    clock: Callable[[], float] = field(default=time.monotonic, compare=False)

    @classmethod
    def after(cls, seconds: float, clock: Callable[[], float] = time.monotonic) -> Deadline:
        return cls(clock() + max(0.0, seconds), clock)

    def remaining(self) -> float:
        return max(0.0, self.at - self.clock())


class RetryBudget(Protocol):
    """What a use case that retries reads: until when it may, and how it waits between attempts."""

    deadline: Deadline

    # A property: a callable attribute would read as a method, which a dataclass field is not.
    @property
    def pause(self) -> Callable[[float], None]: ...
