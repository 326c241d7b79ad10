"""Every error becomes an RFC 9457 problem+json response here, and only here.

Rule errors keep their stable codes; anything unexpected is a 500 without internals, logged with the
correlation id so it can be found.
"""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayRestResolver, Response
from aws_lambda_powertools.event_handler.openapi.exceptions import (
    RequestValidationError,
    ResponseValidationError,
)
from aws_lambda_powertools.utilities.idempotency.exceptions import (
    IdempotencyAlreadyInProgressError,
    IdempotencyValidationError,
)

from app.errors import AppError
from app.telemetry import logger
from dixit.errors import IllegalMoveError, InvalidMoveError

PROBLEM_JSON = "application/problem+json"
_TITLES = {
    400: "Bad Request",
    403: "Forbidden",
    404: "Not Found",
    409: "Conflict",
    422: "Unprocessable Content",
    500: "Internal Server Error",
}

# Rule errors about who the caller is rather than when they act: no later state makes the move theirs
# to make, so they are 403 like the service's own Forbidden errors, not 409. Codes stay as they are.
FORBIDDEN_RULE_CODES = frozenset({"not_host", "not_a_player"})


def problem(status: int, code: str, detail: str, *, title: str | None = None, **extra: Any) -> Response[Any]:
    body = {
        "type": "about:blank",
        "title": title or _TITLES.get(status, "Error"),
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
    }
    return Response(status_code=status, content_type=PROBLEM_JSON, body=json.dumps(body))


def proxy_problem(error: AppError, extra_headers: dict[str, str] | None = None) -> dict[str, Any]:
    """The same problem as a raw proxy response, for errors caught before routing."""
    response = problem(error.status, error.code, error.detail, title=error.title)
    return {
        "statusCode": response.status_code,
        "headers": {"Content-Type": PROBLEM_JSON, **(extra_headers or {})},
        "body": response.body,
        "isBase64Encoded": False,
    }


def _validation_errors(error: RequestValidationError) -> list[dict[str, Any]]:
    # Only where and what: the rejected input itself is never echoed back.
    return [
        {
            "loc": [str(part) for part in e.get("loc", ())],
            "msg": str(e.get("msg", "")),
            "type": str(e.get("type", "")),
        }
        for e in error.errors()
    ]


def register(app: APIGatewayRestResolver) -> None:
    @app.exception_handler(AppError)
    def _app_error(error: AppError) -> Response[Any]:
        return problem(error.status, error.code, error.detail, title=error.title)

    @app.exception_handler(InvalidMoveError)
    def _invalid(error: InvalidMoveError) -> Response[Any]:
        return problem(422, error.code, error.detail)

    @app.exception_handler(IllegalMoveError)
    def _illegal(error: IllegalMoveError) -> Response[Any]:
        return problem(403 if error.code in FORBIDDEN_RULE_CODES else 409, error.code, error.detail)

    @app.exception_handler(RequestValidationError)
    def _malformed(error: RequestValidationError) -> Response[Any]:
        errors = _validation_errors(error)
        if any(e["type"] == "json_invalid" for e in errors):
            return problem(400, "malformed_json", "the request body is not valid JSON")
        return problem(422, "validation_error", "the request does not match the API schema", errors=errors)

    @app.exception_handler(IdempotencyValidationError)
    def _key_reused(_: IdempotencyValidationError) -> Response[Any]:
        return problem(422, "idempotency_key_reused", "this Idempotency-Key was used with a different body")

    @app.exception_handler(IdempotencyAlreadyInProgressError)
    def _in_flight(_: IdempotencyAlreadyInProgressError) -> Response[Any]:
        return problem(409, "request_in_progress", "a request with this Idempotency-Key is still running")

    @app.not_found
    def _no_route(_: Exception) -> Response[Any]:
        return problem(
            404, "route_not_found", f"no route {app.current_event.http_method} {app.current_event.path}"
        )

    @app.exception_handler([ResponseValidationError, Exception])
    def _unexpected(error: Exception) -> Response[Any]:
        logger.exception("unexpected error")
        return problem(500, "internal_error", "something went wrong on our side; it has been logged")
