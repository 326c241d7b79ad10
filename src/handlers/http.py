"""Request helpers shared by the routers: who is calling, which adapters to use, how to answer."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.event_handler import Response, content_types
from aws_lambda_powertools.event_handler.router import APIGatewayRouter
from pydantic import BaseModel

from app import idempotency
from app.errors import BadRequest, NotFound, Unauthorized
from app.etags import game_etag
from app.presenters import game as present_game
from app.records import GameRecord, PlayerRecord
from app.services import Services

_GAME_ID = re.compile(r"^g_[0-9a-f]{16}$")
BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]


class NotModified(Exception):
    """Answer 304 for this ETag.

    Raised rather than returned: the resolver validates a route's return value against its response
    model, and a body-less 304 would fail that check and surface as a 500.
    """

    def __init__(self, etag: str) -> None:
        super().__init__(etag)
        self.etag = etag


def services(router: APIGatewayRouter) -> Services:
    found: Services = router.context["services"]
    return found


def header(router: APIGatewayRouter, name: str) -> str | None:
    value: str | None = router.current_event.headers.get(name)
    return value


def caller(router: APIGatewayRouter) -> PlayerRecord:
    """The player lambda_handler authenticated before routing (every route but the public ones)."""
    player: PlayerRecord | None = router.context.get("player")
    if player is None:
        raise Unauthorized("missing_token", "send 'Authorization: Bearer <token>'")
    return player


def check_game_id(game_id: str) -> str:
    if not _GAME_ID.fullmatch(game_id):
        raise NotFound("game_not_found", f"there is no game {game_id}")
    return game_id


def game_response(
    router: APIGatewayRouter, record: GameRecord, viewer_id: str | None, status: int = 200
) -> dict[str, Any]:
    """A game view as a replayable answer: status, body and the viewer's ETag."""
    body = present_game(record, viewer_id, services(router).images).model_dump(mode="json")
    return {
        "status": status,
        "body": body,
        "headers": {"ETag": game_etag(record.game_id, record.version, viewer_id)},
    }


def to_response(answer: dict[str, Any]) -> Response[Any]:
    return Response(
        status_code=answer["status"],
        content_type=content_types.APPLICATION_JSON,
        body=answer["body"],
        headers=answer.get("headers") or {},
    )


def json_response(model: BaseModel, status: int = 200) -> Response[Any]:
    return to_response({"status": status, "body": model.model_dump(mode="json")})


def once(
    router: APIGatewayRouter,
    player: PlayerRecord,
    body: BaseModel | None,
    compute: Callable[[], dict[str, Any]],
) -> Response[Any]:
    """Answer a POST, applying it at most once per `Idempotency-Key` (when the client sends one)."""
    key = header(router, "Idempotency-Key")
    if key is None:
        return to_response(compute())
    if not key.strip() or len(key) > idempotency.MAX_KEY_LENGTH:
        raise BadRequest(
            "invalid_idempotency_key", f"Idempotency-Key must be 1..{idempotency.MAX_KEY_LENGTH} chars"
        )
    settings = services(router).settings
    answer = idempotency.run_once(
        table_name=settings.table_name,
        ttl_seconds=settings.idempotency_ttl_seconds,
        player_id=player.player_id,
        key=key,
        route=f"{router.current_event.http_method} {router.current_event.path}",
        body=None if body is None else body.model_dump(mode="json"),
        compute=compute,
        lambda_context=router.lambda_context,
    )
    return to_response(answer)
