"""The time a use case works in: the wall clock, and the request's "now" as stores and rules want it.

The local stack (tools/local_stack, `make run`) may run ahead of the wall clock, so that a developer can
play a timeout, quiet hours or a digest through in minutes (`POST /_local/clock`). It names a file in
`DIXIT_LOCAL_CLOCK_FILE` holding the seconds to add, which every process it runs a function in reads at
each `utc_now()`. Why this can never move a deployed function's clock: template.yaml never sets that
variable (tests/local_stack/test_local_clock.py checks it, and `sam-env` writes only the template's
variables), and a Lambda's file system holds no such file; unset, `utc_now()` is the wall clock.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol

#: The variable naming the local stack's clock file (seconds ahead of the wall clock, as text).
LOCAL_CLOCK_FILE = "DIXIT_LOCAL_CLOCK_FILE"


def utc_now() -> datetime:
    now = datetime.now(UTC)
    path = os.environ.get(LOCAL_CLOCK_FILE)
    return now + timedelta(seconds=_local_offset(path)) if path else now


def _local_offset(path: str) -> float:
    # Read at each call: the stack moves its clock while its worker processes keep running.
    try:
        with open(path, encoding="ascii") as file:
            offset = float(file.read())
    except (OSError, ValueError):
        return 0.0  # the stack stopped (its file is gone) or is writing: the wall clock
    return offset if math.isfinite(offset) else 0.0


class Clock(Protocol):
    """The request's "now" (app.services.Services is one: its clock may be a simulation's or the sweep's)."""

    def now_iso(self) -> str:
        """To the millisecond: lobbies are listed newest first by this stamp."""
        ...

    def now_epoch(self) -> int:
        """The "now" the rules core is given (epoch seconds)."""
        ...


class WallClock(Protocol):
    """The clock itself, for a use case that works with datetimes (a feed's expiry, a delivery's stamp)."""

    # A property: a callable attribute would read as a method, which a dataclass field is not.
    @property
    def clock(self) -> Callable[[], datetime]: ...
