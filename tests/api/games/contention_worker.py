"""One simulated Lambda execution environment for the contention trials: its own process, its own client.

Spawned by tests/api/games/test_contention.py; each call waits at a shared barrier, so every environment
sends its request at the same instant.
"""

from __future__ import annotations

import os
from typing import Any

_barrier: Any = None


def start(environment: dict[str, str], barrier: Any) -> None:
    """Pool initializer: the environment the API Lambda reads, and the starting line."""
    global _barrier
    os.environ.update(environment)
    _barrier = barrier
    import handlers.api  # noqa: F401  # warm: the cold start is not part of the race


def invoke(request: tuple[str, str, str, Any]) -> tuple[int, str]:
    """POST `path` as the holder of `token`, once everyone is at the barrier; the status and body."""
    from handlers.api import lambda_handler

    from ..client import FakeContext, make_event

    method, path, token, body = request
    event = make_event(method, path, body=body, headers={"Authorization": f"Bearer {token}"})
    _barrier.wait(timeout=120)
    answer = lambda_handler(event, FakeContext())
    return int(answer["statusCode"]), str(answer.get("body") or "")
