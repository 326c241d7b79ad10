"""The requests that are most of the traffic, a player's moves and looks at a game, answered without the
resolver's per-request machinery: the routes whose line in handlers.route_table says `lane`.

Through the resolver a move paid about as much for the framework as for its three DynamoDB calls: route
matching, parameter resolution and two validation passes written for any route (docs/performance.md,
"Handler floor"). These routes need none of that generality. They stay registered on the resolver, which
describes them (OpenAPI) and answers whatever this lane declines. The lane validates requests with the
same models, runs the same route code (`routes.game_moves.play_move` and `look`) and maps errors with the same
functions (handlers.problems), so a request gets the same answer either way: tests/api/http/test_hot_routes.py
sends each one both ways and compares. Unlike the resolver it does not validate the answer again against
GameOut: the tests prove that game_body always builds exactly that (tests/app/games/test_game_body.py).

The lane declines (None) whenever the answer would be about the request's form, so every 400 and 422
for malformed input is still worded in one place: a body or header the models refuse, a header sent
twice, a missing path parameter.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import pydantic_core
from aws_lambda_powertools.event_handler import CORSConfig, Response
from pydantic import TypeAdapter, ValidationError

from app.core.records import PlayerRecord
from app.services import Services
from handlers import problems
from handlers.http import IdempotencyKey, IfMatch, IfNoneMatch, NotModified
from handlers.route_table import ROUTES as TABLE
from handlers.route_table import Route
from handlers.routes.game_moves import MOVE_ROUTES, MoveRoute, look, play_move

# What a hot route is given: the event, the caller, the adapters and the body's JSON value (None: no body).
Answer = Callable[[dict[str, Any], PlayerRecord, Services, Any], "Response[Any] | None"]

_DECLINED = object()


@lru_cache(maxsize=16)
def _adapter(model: Any) -> TypeAdapter[Any]:
    """A header's or a body's validator, built when a request first needs it: a view never builds a
    move's (If-Match, Idempotency-Key, its body), a move never builds a view's (issue 36)."""
    return TypeAdapter(model)


def _header(event: dict[str, Any], name: str, kind: Any) -> Any:
    """The header's valid value (None when absent), or _DECLINED when the resolver must say what is wrong.

    `name` is lower case. Sent twice, the resolver decides which value counts; the lane does not guess.
    """
    values = [v for k, v in (event.get("multiValueHeaders") or {}).items() if k.lower() == name]
    if values:
        if len(values) != 1 or not isinstance(values[0], list) or len(values[0]) != 1:
            return _DECLINED
        value = values[0][0]
    else:
        value = next((v for k, v in (event.get("headers") or {}).items() if k.lower() == name), None)
    try:
        return _adapter(kind).validate_python(value)
    except ValidationError:
        return _DECLINED


def _game_id(event: dict[str, Any]) -> str | None:
    found = (event.get("pathParameters") or {}).get("game_id")
    return found if isinstance(found, str) else None


def _move(route: MoveRoute) -> Answer:
    def answer(event: dict[str, Any], player: PlayerRecord, services: Services, value: Any) -> Any:
        game_id, if_match = _game_id(event), _header(event, "if-match", IfMatch)
        key = _header(event, "idempotency-key", IdempotencyKey)
        if game_id is None or if_match is _DECLINED or key is _DECLINED:
            return None
        body = None
        if route.body is not None:
            try:
                body = _adapter(route.body).validate_python(value)
            except ValidationError:
                return None
        path = str(event.get("path") or "")
        return play_move(route, path, game_id, player, services, body=body, if_match=if_match, key=key)

    return answer


def _look(event: dict[str, Any], player: PlayerRecord, services: Services, value: Any) -> Any:
    game_id, if_none_match = _game_id(event), _header(event, "if-none-match", IfNoneMatch)
    if game_id is None or if_none_match is _DECLINED:
        return None
    return look(player, services, game_id, if_none_match)


# What answers each route the table sends down the lane: a missing one fails here, at import.
_ANSWERS: dict[str, Answer] = {route.operation_id: _move(route) for route in MOVE_ROUTES}
_ANSWERS["getGame"] = _look
ROUTES: dict[str, Answer] = {
    route.operation_id: _ANSWERS[route.operation_id] for route in TABLE if route.lane
}


def answer(
    event: dict[str, Any],
    matched: Route,
    player: PlayerRecord | None,
    services: Services,
    value: Any,
    cors: CORSConfig,
) -> dict[str, Any] | None:
    """The proxy answer to a lane route's request, or None: the resolver answers it instead."""
    route = ROUTES.get(matched.operation_id) if matched.lane else None
    if route is None or player is None:
        return None
    try:
        response = route(event, player, services, value)
        if response is None:
            return None
        if response.status_code < 300 and response.body is not None:
            # Not validated again, as the resolver would: the body is game_body's, which the tests prove
            # is GameOut's JSON for every state of generated games (tests/app/games/test_game_body.py),
            # and the check cost a twentieth of a move. pydantic-core writes it (UTF-8, no \u escapes).
            response.body = pydantic_core.to_json(response.body).decode()
    except NotModified as unchanged:
        response = unchanged.response()
    except Exception as error:
        response = problems.route_error_answer(error)
    return _proxy(response, event, cors)


def _proxy(response: Response[Any], event: dict[str, Any], cors: CORSConfig) -> dict[str, Any]:
    """The proxy integration's answer, shaped as the resolver shapes it (multi-value headers, CORS)."""
    headers: dict[str, list[str]] = {}
    for name, given in response.headers.items():
        if given is not None:
            headers.setdefault(name, []).extend([given] if isinstance(given, str) else given)
    allowed = cors.allowed_origin(_origin(event))
    if allowed is not None:
        for name, value in cors.to_dict(allowed).items():
            headers.setdefault(name, []).append(value)
    return {
        "statusCode": response.status_code,
        "body": response.body,
        "isBase64Encoded": False,
        "multiValueHeaders": headers,
    }


def _origin(event: dict[str, Any]) -> Any:
    for field in ("multiValueHeaders", "headers"):
        given = event.get(field)
        if given:
            found = next((v for k, v in given.items() if k.lower() == "origin"), None)
            return found[0] if isinstance(found, list) and found else found
    return None
