"""The API Lambda: one resolver, one router per resource, errors mapped once (handlers.problems)."""

from __future__ import annotations

import gc
from dataclasses import replace
from functools import lru_cache
from typing import Any

from aws_lambda_powertools import Tracer
from aws_lambda_powertools.event_handler import APIGatewayRestResolver, CORSConfig
from aws_lambda_powertools.utilities.data_classes.common import CaseInsensitiveDict
from aws_lambda_powertools.utilities.typing import LambdaContext

# What is imported so far (the framework: some 48,000 objects) lives as long as the process. Its import
# leaves the collector one step short of a full collection, which would fall among the app's own imports
# and walk every one of those objects for nothing (about 17 M instructions of a cold start, issue 36);
# frozen, they are left out of every collection from here on. The app's own are frozen at the end.
gc.freeze()

from app import bootstrap
from app.core.deadline import Deadline
from app.core.errors import AppError, InsufficientScope, NotFound
from app.core.settings import AppSettings
from app.core.telemetry import logger, metrics
from app.players.accounts import SignedIn, authenticate
from app.players.scopes import allows
from app.services import Services
from handlers import bodies, hot_routes, problems, route_table
from handlers.http import NotModified
from handlers.route_table import Route
from handlers.routing import Routers

# Time kept back from the invocation's remaining time to turn whatever happened into an answer.
ANSWER_RESERVE_SECONDS = 1.0

# Only the AWS SDK is worth a subsegment here; patch_all would import and patch a dozen libraries on
# every cold start (about 40 ms of CPU) for calls this function never makes.
tracer = Tracer(patch_modules=("botocore",))
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
    # Browsers hide response headers from scripts unless they are listed here.
    expose_headers=["ETag", "Location", "Retry-After"],
    max_age=600,
)
# A response that breaks its own schema is our bug: a 500, never a 422 blaming the client.
app = APIGatewayRestResolver(enable_validation=True, response_validation_error_http_code=500, cors=CORS)
problems.register(app)
app.exception_handler(NotModified)(NotModified.response)
# Each router when the first request for one of its resources reaches the resolver (handlers.routing).
routers = Routers(app)
# Moves and game views take the direct lane (handlers.hot_routes); False sends them through the resolver,
# which the tests that compare both answers need.
direct_lane = True


def whole_api() -> APIGatewayRestResolver:
    """The resolver with every router registered: what the document describes and its checks read."""
    routers.everything()
    return app


def warm_up() -> None:
    """Build now what first requests would: every router, its validation models and every schema.

    A cold start must not pay for this, so nothing calls it on the way to a request; a SnapStart
    snapshot is taken once per version, so its before-snapshot hook does, and restores start warm.
    """
    from app.core.schema_base import Schema

    whole = whole_api()
    for route in [*whole._static_routes, *whole._dynamic_routes]:
        _ = route.dependant, route.body_field
    unbuilt: list[type[Schema]] = [Schema]
    while unbuilt:
        model = unbuilt.pop()
        unbuilt += model.__subclasses__()
        if not model.__pydantic_complete__:
            model.model_rebuild()


def _admit(event: dict[str, Any], route: Route | None, services: Services) -> tuple[SignedIn | None, Any]:
    """Checks that come before routing, since the resolver validates a body before any route runs.

    A caller without a valid token learns that, not what is wrong with a body they may not send at all;
    nor does a token without the route's scope (a personal token's), whichever lane then answers.
    Returns the authenticated caller (None on public routes) and the body's JSON value (None without
    one), and leaves `event` with its body as decoded text; raises AppError to refuse the request.
    """
    data = bodies.body_bytes(event)
    bodies.check_size(data, services.settings.max_body_bytes)
    headers = CaseInsensitiveDict(event.get("headers") or {})
    # A rotation's retry may come with the token it replaced: only that route hears its key.
    rotation_key = headers.get("Idempotency-Key") if route is not None and route.rotation else None
    signed = (
        None
        if _is_public(event, route)
        else authenticate(services, headers.get("Authorization"), rotation_key=rotation_key)
    )
    if signed is not None and signed.scopes is not None:
        _check_scope(route, signed.scopes)
    text = bodies.decode(data)
    value = None
    if text.strip() and not (route is not None and route.form):
        bodies.check_media_type(headers.get("Content-Type"))
        value = bodies.parse(text)
    event["body"], event["isBase64Encoded"] = (text or None), False
    return signed, value


def _check_scope(route: Route | None, scopes: frozenset[str]) -> None:
    """Refuse a scoped token (a personal token's) a route its scopes do not reach.

    With no line in the table (a resource API Gateway never sends), the resolver could still match the
    path to a route whose scope nobody checked: a scoped token is told there is no such route instead.
    """
    if route is None:
        raise NotFound("route_not_found", "no such route")
    if route.scope is not None and not allows(scopes, route.scope):
        raise InsufficientScope(route.scope.value)


def _is_public(event: dict[str, Any], route: Route | None) -> bool:
    """A public route's request, or a CORS preflight on a path the API serves (a browser sends no token
    with one); anything else needs a token, unknown routes too, so a stranger learns nothing of them."""
    if route is not None:
        return route.public
    return event.get("httpMethod") == "OPTIONS" and route_table.serves(event.get("resource"))


def _name_json(event: dict[str, Any], has_body: bool) -> None:
    """Leave the resolver one Content-Type it reads as JSON, or none for an empty body.

    Whatever was accepted above is UTF-8 JSON by now, but the resolver only parses a type that starts
    with `application/json`: any other (a `+json` type, a stray type on an empty body) would be a 500.
    """
    for field in ("headers", "multiValueHeaders"):
        given = event.get(field)
        if isinstance(given, dict):
            kept = {name: value for name, value in given.items() if name.lower() != "content-type"}
            if has_body:
                kept["Content-Type"] = "application/json" if field == "headers" else ["application/json"]
            event[field] = kept


def _cors_headers(event: Any) -> dict[str, str]:
    headers = event.get("headers") if isinstance(event, dict) else None
    origin = CaseInsensitiveDict(headers if isinstance(headers, dict) else {}).get("Origin")
    return CORS.to_dict(origin)


def _with_public_url(services: Services, event: dict[str, Any]) -> Services:
    """The API's own execute-api URL for the unsubscribe links of the mails a request sends (a nudge's),
    when PUBLIC_API_URL is not given: the function cannot be told it (the API refers to the function)."""
    if services.settings.public_api_url:
        return services
    context = event.get("requestContext") or {}
    domain, stage = str(context.get("domainName") or ""), str(context.get("stage") or "")
    if not domain.endswith(".amazonaws.com") or not stage.isidentifier():
        return services
    return replace(services, settings=_settings_with(services.settings, f"https://{domain}/{stage}"))


@lru_cache(maxsize=8)
def _settings_with(settings: AppSettings, public_api_url: str) -> AppSettings:
    # Once per environment, not a settings copy on every request: the URL is the same for all of them.
    return replace(settings, public_api_url=public_api_url)


def _deadline(context: LambdaContext) -> Deadline:
    remaining = context.get_remaining_time_in_millis() / 1000
    return Deadline.after(remaining - ANSWER_RESERVE_SECONDS)


@metrics.log_metrics(capture_cold_start_metric=True)
def _answer(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    # Set here: the logger decorator's JMESPath lookup of the same id cost more than the rest of it.
    logger.set_correlation_id(_request_id(event))
    services = _with_public_url(bootstrap.services(_deadline(context)), event)
    event = dict(event)  # _admit replaces the body with its decoded text; the caller's dict stays as it was
    # The one match of the request to a route (the resolver then finds the function it was told of).
    route = route_table.match(event.get("httpMethod"), event.get("resource"))
    try:
        signed, value = _admit(event, route, services)
    except AppError as refused:
        return problems.proxy_problem(refused, _cors_headers(event))
    player = signed.player if signed is not None else None
    if direct_lane and route is not None and route.lane:
        answered = hot_routes.answer(event, route, player, services, value, CORS)
        if answered is not None:
            return answered
    if route is None or not route.form:
        # A form route reads its own body and type (the token endpoint refuses anything but a form).
        _name_json(event, bool((event["body"] or "").strip()))
    routers.for_route(route)
    app.append_context(services=services, player=player, signed=signed)
    answered = app.resolve(event, context)
    # A lane route (a move, a game view) answers alike either way (tests/api/http/test_hot_routes.py):
    # its view says its own freshness, and a move's POST answer is stored by no cache.
    return answered if route is None or route.public or route.lane else _kept_private(answered)


def _kept_private(answer: dict[str, Any]) -> dict[str, Any]:
    """A signed-in caller's answer is theirs alone: no cache keeps it unless its route said how long
    (a polled list's `private, max-age`). Secrets shown once (a webhook's rotated secret) and the
    player's own email must not outlive the answer in a shared or a browser's disk cache."""
    for field in ("multiValueHeaders", "headers"):
        given = answer.get(field)
        if isinstance(given, dict) and any(name.lower() == "cache-control" for name in given):
            return answer
    headers = answer.get("multiValueHeaders")
    if isinstance(headers, dict):
        headers["Cache-Control"] = ["no-store"]
    else:
        answer["multiValueHeaders"] = {"Cache-Control": ["no-store"]}
    return answer


# A response may carry a token (registration, rotation): it never goes to the trace. With tracing off (the
# local stack, the tests, POWERTOOLS_TRACE_DISABLED) the decorator would still build a dummy segment for
# every request, so it is left out.
_traced = _answer if tracer.disabled else tracer.capture_lambda_handler(capture_response=False)(_answer)
_handle = logger.inject_lambda_context(log_event=False)(_traced)


def _request_id(event: dict[str, Any]) -> str | None:
    """API Gateway's id of the request (correlation_paths.API_GATEWAY_REST): what each log line carries."""
    context = event.get("requestContext")
    found = context.get("requestId") if isinstance(context, dict) else None
    return found if isinstance(found, str) else None


def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """The entry point: whatever fails, API Gateway gets a problem+json answer, never an exception."""
    try:
        answer: dict[str, Any] = _handle(event, context)
    except Exception:
        logger.exception("unexpected error outside the routes")
        return problems.last_resort(_cors_headers(event))
    return answer


# SnapStart (docs/deploying.md): the snapshot is taken warm; each restore reseeds and rebuilds its clients.
bootstrap.prepare_for_snapshots(warm_up)
# The modules' own objects, as the framework's above: no request's collection walks them again.
gc.freeze()

if __name__ == "__main__":
    # `make openapi`: print the document the routes declare (committed as openapi.json).
    from handlers import openapi

    print(openapi.document(whole_api()), end="")
