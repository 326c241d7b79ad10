"""The API Lambda: one resolver, one router per resource, errors mapped once (handlers.problems)."""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools import Tracer
from aws_lambda_powertools.event_handler import APIGatewayRestResolver, CORSConfig, Response, content_types
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.data_classes.common import CaseInsensitiveDict
from aws_lambda_powertools.utilities.typing import LambdaContext

from app.errors import AppError
from app.players import authenticate
from app.records import PlayerRecord
from app.services import Services
from app.settings import get_settings
from app.telemetry import logger, metrics
from handlers import problems
from handlers.problems import MalformedRequest, PayloadTooLarge
from handlers.routes import decks, games, notifications, players

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
    expose_headers=["ETag", "Retry-After"],
    max_age=600,
)
# A response that breaks its own schema is our bug: a 500, never a 422 blaming the client.
app = APIGatewayRestResolver(enable_validation=True, response_validation_error_http_code=500, cors=CORS)
app.include_router(players.router)
app.include_router(games.router)
app.include_router(decks.router)
app.include_router(notifications.router)
problems.register(app)


# The document and its page load the OpenAPI models and Swagger assets: only these two routes pay.
@app.get("/openapi.json", include_in_schema=False)
def serve_openapi() -> Response[Any]:
    from handlers import openapi

    return Response(status_code=200, content_type=content_types.APPLICATION_JSON, body=openapi.document(app))


@app.get("/docs", include_in_schema=False)
def serve_docs() -> Response[Any]:
    from handlers import openapi

    if (app.current_event.query_string_parameters or {}).get("format") == "json":
        # Swagger UI names this URL as the source of the document it shows.
        return serve_openapi()
    return Response(status_code=200, content_type="text/html", body=openapi.swagger_page(app))


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
        raise MalformedRequest("body_not_an_object", "the request body must be a JSON object")
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
    app.append_context(services=services, player=player, lambda_context=context)
    return app.resolve(event, context)


if __name__ == "__main__":
    # `make openapi`: print the document the routes declare (committed as openapi.json).
    from handlers import openapi

    print(openapi.document(app), end="")
