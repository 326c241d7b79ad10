"""The API Lambda: one resolver, one router per resource, errors mapped once (handlers.problems)."""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools import Tracer
from aws_lambda_powertools.event_handler import APIGatewayRestResolver, CORSConfig, Response, content_types
from aws_lambda_powertools.event_handler.openapi.models import HTTPBearer
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.data_classes.common import CaseInsensitiveDict
from aws_lambda_powertools.utilities.typing import LambdaContext

from app.errors import AppError, BadRequest, PayloadTooLarge
from app.players import authenticate
from app.records import PlayerRecord
from app.services import Services
from app.settings import get_settings
from app.telemetry import logger, metrics
from handlers import problems
from handlers.routes import decks, games, players

TITLE = "Dixit by mail"
VERSION = "1.0.0"
DESCRIPTION = (
    "Play Dixit asynchronously. Authenticate with `Authorization: Bearer <token>` from `POST /players`. "
    "POST routes accept `Idempotency-Key`; `GET /games/{game_id}` answers `If-None-Match` with 304; "
    "move routes accept `If-Match` (412 when stale). "
    "Errors are application/problem+json with a stable `code`."
)
SECURITY_SCHEMES: dict[str, Any] = {"bearerAuth": HTTPBearer(bearerFormat="opaque token")}

# Everything else needs a bearer token (API Gateway only forwards declared resources).
PUBLIC_ROUTES = frozenset(
    {
        ("POST", "/players"),
        ("GET", "/decks"),
        ("GET", "/decks/{deck_id}/cards"),
        ("GET", "/openapi.json"),
        ("GET", "/docs"),
        ("OPTIONS", "/docs"),
    }
)

tracer = Tracer()
# A response that breaks its own schema is our bug: a 500, never a 422 blaming the client.
# Proxy integration: API Gateway answers preflights, but every real response carries its own CORS headers.
CORS = CORSConfig(
    allow_origin="*",
    allow_headers=[
        "Authorization",
        "Content-Type",
        "Idempotency-Key",
        "If-Match",
        "If-None-Match",
        "X-Api-Key",
    ],
    expose_headers=["ETag"],
    max_age=600,
)
app = APIGatewayRestResolver(enable_validation=True, response_validation_error_http_code=500, cors=CORS)
app.include_router(players.router)
app.include_router(games.router)
app.include_router(decks.router)
problems.register(app)
app.enable_swagger(
    path="/docs", title=TITLE, version=VERSION, description=DESCRIPTION, security_schemes=SECURITY_SCHEMES
)


def openapi_json() -> str:
    return app.get_openapi_json_schema(
        title=TITLE, version=VERSION, description=DESCRIPTION, security_schemes=SECURITY_SCHEMES
    )


@app.get("/openapi.json", include_in_schema=False)
def serve_openapi() -> Response[Any]:
    from handlers.openapi import render  # imports this module: resolved at call time

    return Response(status_code=200, content_type=content_types.APPLICATION_JSON, body=render())


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _admit(event: dict[str, Any], services: Services) -> PlayerRecord | None:
    """Checks that come before routing, since the resolver validates a body before any route runs.

    A caller without a valid token learns that, not what is wrong with a body they may not send at all.
    Returns the authenticated player (None on public routes); raises AppError to refuse the request.
    """
    limit = services.settings.max_body_bytes
    body = event.get("body") or ""
    if len(body.encode()) > limit:
        raise PayloadTooLarge("payload_too_large", f"request bodies are limited to {limit} bytes")
    if body.lstrip().startswith("[") and _is_json(body):
        # The resolver would quietly take the first element of a list; every body here is an object.
        raise BadRequest("body_not_an_object", "the request body must be a JSON object")
    if (event.get("httpMethod"), event.get("resource")) in PUBLIC_ROUTES:
        return None
    return authenticate(services, CaseInsensitiveDict(event.get("headers") or {}).get("Authorization"))


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST)
@tracer.capture_lambda_handler
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    services = Services.from_settings(get_settings())
    try:
        player = _admit(event, services)
    except AppError as refused:
        origin = CaseInsensitiveDict(event.get("headers") or {}).get("Origin")
        return problems.proxy_problem(refused, CORS.to_dict(origin))
    app.append_context(services=services, player=player)
    return app.resolve(event, context)
