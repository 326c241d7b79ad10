"""The HTTP responses the local gateway answers with: a handler's mapped back, a static file, a problem."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class HttpResponse:
    status: int
    headers: list[tuple[str, str]]
    body: bytes


def problem(status: int, title: str, code: str, detail: str, **extra: Any) -> HttpResponse:
    """The API's own RFC 9457 problem document (``handlers.problems``), for what the gateway answers."""
    from handlers.problems import problem as api_problem  # the product's shape, imported not restated

    response = api_problem(status, code, detail, title=title, **extra)
    body = response.body if isinstance(response.body, bytes) else str(response.body).encode()
    return HttpResponse(status, [("Content-Type", "application/problem+json")], body)
