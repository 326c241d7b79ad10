"""Every error becomes an RFC 9457 problem+json response here, and only here.

Domain errors (app.core.errors) and rule errors (dixit.errors) carry a stable code and say nothing about
HTTP; this module alone maps them to a status and title, and documents per route which problems it can
answer. Anything unexpected is a 500 without internals, logged with the correlation id.
"""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Any, cast

from aws_lambda_powertools.event_handler import APIGatewayRestResolver, Response
from aws_lambda_powertools.event_handler.openapi.exceptions import (
    RequestValidationError,
    ResponseValidationError,
)
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse, OpenAPIResponseHeader

from app.core.errors import (
    AppError,
    Busy,
    Conflict,
    Forbidden,
    IdempotencyKeyReused,
    InsufficientScope,
    InvalidInput,
    NotAuthenticated,
    NotConfigured,
    NotFound,
    RateLimited,
    StaleVersion,
    StoreUnavailable,
)
from app.core.telemetry import logger
from app.games.idempotency import MAX_KEY_LENGTH
from app.oauth.errors import OAuthRefused
from dixit.errors import IllegalMoveError, InvalidMoveError

PROBLEM_JSON = "application/problem+json"


class MalformedRequest(AppError):
    """The request cannot be read at all (its body, or a header such as Idempotency-Key)."""


class PayloadTooLarge(AppError):
    """The body is over the configured size limit."""


class UnsupportedMediaType(AppError):
    """A body sent as anything but JSON."""


_TITLES = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    409: "Conflict",
    412: "Precondition Failed",
    413: "Payload Too Large",
    415: "Unsupported Media Type",
    422: "Unprocessable Content",
    429: "Too Many Requests",
    500: "Internal Server Error",
    501: "Not Implemented",
    503: "Service Unavailable",
}
# What each status means on this API, as the OpenAPI document tells clients.
_MEANINGS = {
    400: (
        "Malformed request: invalid UTF-8 or JSON, nesting too deep, or a bad Idempotency-Key; an app's "
        "authorization request OAuth refuses (its `code` says why)"
    ),
    401: "Missing, invalid, revoked or expired bearer token (with WWW-Authenticate: Bearer)",
    403: (
        "Not allowed: not a member, not the host, a wrong invite code, or a token without the scope "
        "the route needs (insufficient_scope, naming it in `scope`)"
    ),
    404: "No such game, deck or device",
    409: "Not legal now, or lost every race to other moves (busy_game, with Retry-After)",
    412: "If-Match no longer matches the game",
    413: "Request body too large",
    415: "The body is not application/json",
    422: "Input that can never be valid (schema, clue, card ids, card count)",
    429: "Too soon: wait the seconds Retry-After gives",
    500: "Unexpected error; logged with the correlation id",
    501: "Not set up on this deployment (push_not_configured); do not retry",
    503: "Storage busy or unreachable; nothing was applied. Retry after `Retry-After` seconds",
}


def header(description: str, *, integer: bool = False, required: bool = False) -> OpenAPIResponseHeader:
    """A response header as the OpenAPI document states it; `required`: every such answer carries it."""
    kind = "integer" if integer else "string"
    stated: dict[str, Any] = {"description": description, "schema": {"type": kind}}
    if required:
        stated["required"] = True  # an OpenAPI header field the Powertools type leaves out
    return cast(OpenAPIResponseHeader, stated)


# Headers the problem answers of a status carry, as the OpenAPI document states them.
_HEADERS: dict[int, dict[str, OpenAPIResponseHeader]] = {
    401: {
        "WWW-Authenticate": header(
            'Bearer, with error="invalid_token" when the token sent was refused', required=True
        )
    },
    403: {
        "WWW-Authenticate": header(
            'On insufficient_scope: Bearer error="insufficient_scope", scope="<the scope it lacks>"'
        )
    },
    409: {"Retry-After": header("On busy_game: seconds to wait before trying again", integer=True)},
    429: {"Retry-After": header("Seconds until the request is allowed again", integer=True, required=True)},
    503: {"Retry-After": header("Seconds to wait before trying again", integer=True, required=True)},
}
_STATUS_OF: dict[type[AppError], int] = {
    MalformedRequest: 400,
    # An app's authorization request the protocol refuses (the consent page shows it).
    OAuthRefused: 400,
    NotAuthenticated: 401,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
    StaleVersion: 412,
    PayloadTooLarge: 413,
    UnsupportedMediaType: 415,
    InvalidInput: 422,
    RateLimited: 429,
    NotConfigured: 501,
    IdempotencyKeyReused: 422,
    StoreUnavailable: 503,
}
# Errors that pass if the client waits a moment: the answer says how long (seconds).
_RETRY_AFTER: dict[type[AppError], int] = {Busy: 1, StoreUnavailable: 1}
# RFC 6750: a refused token is named `invalid_token`; a request that sent none gets the bare challenge.
_CHALLENGE_ERRORS = frozenset({"invalid_token", "token_expired"})

# Rule errors about who the caller is rather than when they act: no later state makes the move theirs
# to make, so they are 403 like the service's own Forbidden errors, not 409. Codes stay as they are.
FORBIDDEN_RULE_CODES = frozenset({"not_host", "not_a_player"})


def status_of(error: AppError) -> int:
    for kind in type(error).__mro__:
        if kind in _STATUS_OF:
            return _STATUS_OF[kind]
    return 500


def _problem_model() -> type[Any]:
    # The document's model of an answer written here as plain JSON: the routers that declare answers
    # import it, a move's cold start does not (issue 36).
    from handlers.problem_schema import Problem

    return Problem


def answers(success: dict[int, OpenAPIResponse], *statuses: int) -> dict[str, Any]:
    """A route's decorator arguments for what it answers: its success and the problems it can raise.

    422, 500 and 503 are always there: the resolver validates every route's request and response, and
    any route may find the store unavailable. The 500 is declared at route level so Powertools keeps
    this problem+json description instead of its own.
    """
    problems: dict[int, OpenAPIResponse] = {
        status: {
            "description": _MEANINGS[status],
            "content": {PROBLEM_JSON: {"model": _problem_model()}},
            **({"headers": _HEADERS[status]} if status in _HEADERS else {}),
        }
        for status in sorted({*statuses, 422, 500, 503})
    }
    return {
        "responses": {**success, **problems},
        "custom_response_validation_http_code": HTTPStatus.INTERNAL_SERVER_ERROR,
    }


def challenge(code: str) -> dict[str, str]:
    """The WWW-Authenticate header every 401 carries."""
    if code in _CHALLENGE_ERRORS:
        return {"WWW-Authenticate": 'Bearer error="invalid_token"'}
    return {"WWW-Authenticate": "Bearer"}


def problem(
    status: int, code: str, detail: str, *, headers: dict[str, str] | None = None, **extra: Any
) -> Response[Any]:
    body = {
        "type": "about:blank",
        "title": _TITLES.get(status, "Error"),
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
    }
    if status == 401:
        headers = {**challenge(code), **(headers or {})}
    return Response(status_code=status, content_type=PROBLEM_JSON, body=json.dumps(body), headers=headers)


def retry_after(error: AppError) -> int | None:
    for kind in type(error).__mro__:
        if kind in _RETRY_AFTER:
            return _RETRY_AFTER[kind]
    return None


def app_problem(error: AppError) -> Response[Any]:
    if isinstance(error, InsufficientScope):
        # RFC 6750 section 3: the challenge names the scope the request needed.
        challenge = {"WWW-Authenticate": f'Bearer error="insufficient_scope", scope="{error.scope}"'}
        return problem(403, error.code, error.detail, headers=challenge, scope=error.scope)
    # A rate's own wait, also for a refusal before routing (a personal token's rates are claimed there).
    wait = error.retry_after if isinstance(error, RateLimited) else retry_after(error)
    headers = None if wait is None else {"Retry-After": str(wait)}
    return problem(status_of(error), error.code, error.detail, headers=headers)


def with_scope_refusal(responses: dict[int, OpenAPIResponse]) -> dict[int, OpenAPIResponse]:
    """A signed-in route's answers with the 403 a token without its scope gets (any such route can)."""
    if 403 in responses:
        return responses
    refusal: dict[int, OpenAPIResponse] = answers({}, 403)["responses"]
    return {**responses, 403: refusal[403]}


def proxy_problem(error: AppError, extra_headers: dict[str, str] | None = None) -> dict[str, Any]:
    """The same problem as a raw proxy response, for errors caught before routing."""
    response = app_problem(error)
    own = {name: str(value) for name, value in response.headers.items() if name != "Content-Type"}
    return {
        "statusCode": response.status_code,
        "headers": {"Content-Type": PROBLEM_JSON, **own, **(extra_headers or {})},
        "body": response.body,
        "isBase64Encoded": False,
    }


def last_resort(extra_headers: dict[str, str] | None = None) -> dict[str, Any]:
    """The 500 for an error that escaped everything else (logged by the caller), as a raw proxy response."""
    response = problem(500, "internal_error", "something went wrong on our side; it has been logged")
    return {
        "statusCode": 500,
        "headers": {"Content-Type": PROBLEM_JSON, **(extra_headers or {})},
        "body": response.body,
        "isBase64Encoded": False,
    }


# The longest piece of the caller's own input an answer names (a field's name, a path): enough to find it.
SHOWN_INPUT_CHARACTERS = 64


def shown(text: str, most: int = SHOWN_INPUT_CHARACTERS) -> str:
    """A piece of the caller's input fit to name in an answer: control, format (bidi) and other
    unprintable characters escaped, cut at `most` characters (a body key of 15,000 characters, or a path
    with CR LF in it, came back whole)."""
    escaped = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text[: most + 1])
    return escaped if len(text) <= most and len(escaped) <= most else escaped[:most] + "…"


def _validation_errors(error: RequestValidationError) -> list[dict[str, Any]]:
    # Only where and what: the rejected input itself is never echoed back, and a location that names
    # the caller's own key is shown escaped and cut short.
    return [
        {
            "loc": [shown(str(part)) for part in e.get("loc", ())],
            "msg": str(e.get("msg", "")),
            "type": str(e.get("type", "")),
        }
        for e in error.errors()
    ]


def _is_about_header(error: dict[str, Any], name: str) -> bool:
    return [part.lower() for part in error["loc"][:2]] == ["header", name]


def _is_about_idempotency_key(error: dict[str, Any]) -> bool:
    return [part.lower() for part in error["loc"][:2]] == ["header", "idempotency-key"]


def app_error_answer(error: AppError) -> Response[Any]:
    answer = app_problem(error)
    if isinstance(error, RateLimited):
        answer.headers["Retry-After"] = str(error.retry_after)
    return answer


def invalid_move_answer(error: InvalidMoveError) -> Response[Any]:
    return problem(422, error.code, error.detail)


def illegal_move_answer(error: IllegalMoveError) -> Response[Any]:
    return problem(403 if error.code in FORBIDDEN_RULE_CODES else 409, error.code, error.detail)


def unexpected_answer(error: Exception) -> Response[Any]:
    logger.exception("unexpected error")
    return problem(500, "internal_error", "something went wrong on our side; it has been logged")


def route_error_answer(error: Exception) -> Response[Any]:
    """The answer to whatever a route raised, as the resolver's handlers below give it (the hot routes,
    handlers.hot_routes, answer without the resolver and come here)."""
    if isinstance(error, AppError):
        return app_error_answer(error)
    if isinstance(error, InvalidMoveError):
        return invalid_move_answer(error)
    if isinstance(error, IllegalMoveError):
        return illegal_move_answer(error)
    return unexpected_answer(error)


def register(app: APIGatewayRestResolver) -> None:
    app.exception_handler(AppError)(app_error_answer)
    app.exception_handler(InvalidMoveError)(invalid_move_answer)
    app.exception_handler(IllegalMoveError)(illegal_move_answer)

    @app.exception_handler(RequestValidationError)
    def _malformed(error: RequestValidationError) -> Response[Any]:
        errors = _validation_errors(error)
        if any(e["type"] == "json_invalid" for e in errors):
            return problem(400, "malformed_json", "the request body is not valid JSON")
        if any(_is_about_header(e, "if-match") for e in errors):
            return problem(
                400, "malformed_if_match", 'If-Match must be "*" or a list of entity tags from an ETag header'
            )
        if any(_is_about_idempotency_key(e) for e in errors):
            return problem(
                400,
                "invalid_idempotency_key",
                f"Idempotency-Key must be 1..{MAX_KEY_LENGTH} printable ASCII characters, not only spaces",
            )
        return problem(422, "validation_error", "the request does not match the API schema", errors=errors)

    @app.not_found
    def _no_route(_: Exception) -> Response[Any]:
        return problem(
            404,
            "route_not_found",
            f"no route {shown(app.current_event.http_method)} {shown(app.current_event.path, 200)}",
        )

    app.exception_handler([ResponseValidationError, Exception])(unexpected_answer)
