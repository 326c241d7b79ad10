"""When a credential (a session, a personal token, an app's grant) was last used, recorded coarsely.

Reads must not become writes: a use is written at most once per `granularity`, by a conditional write
that loses quietly to a concurrent one, and a store that cannot take it costs the request nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Protocol

from app.core.clock import Clock, WallClock
from app.core.errors import StoreUnavailable
from app.core.telemetry import logger


class _Clocks(Clock, WallClock, Protocol):
    pass


def note_use(
    services: _Clocks,
    last_used_at: str | None,
    granularity: timedelta,
    touch: Callable[..., object],
    what: str,
) -> None:
    """Call `touch(used_at=..., older_than=...)` unless the last recorded use is more recent than
    `granularity`; `what` names the credential in the warning when the store is unavailable."""
    now = services.clock()
    if last_used_at and now - datetime.fromisoformat(last_used_at) < granularity:
        return
    try:
        touch(used_at=services.now_iso(), older_than=(now - granularity).isoformat(timespec="milliseconds"))
    except StoreUnavailable:
        # Only a bookkeeping write: the request it came with still goes ahead.
        logger.warning("could not record %s's last use", what)
