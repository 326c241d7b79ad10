"""LiveFunction: the live channel's WebSocket API (API Gateway, routes `$connect`, `$disconnect`,
`$default`), one event per connection, message or close.

- `$connect?ticket=…`: the ticket is taken (single use) and the connection recorded under its player;
  401 refuses the handshake for a bad, used or expired ticket, or one whose account was erased or whose
  credential was revoked since, 429 for a player over the connection cap.
- `$default`: a frame (`watch`, `unwatch`, `ping`) answered on the same connection through the route's
  response (app.live.watching).
- `$disconnect`: the connection and its watches are forgotten.

The sender (handlers.live_delivery) posts the changes; this function never posts.
"""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from app import bootstrap
from app.core.errors import AppError, NotAuthenticated
from app.core.telemetry import count, logger, metrics
from app.live import connections, watching
from app.live.connections import TooManyConnections

# A player over the connection cap waits for one of theirs to close: a minute is a fair first wait.
CAP_RETRY_AFTER_SECONDS = 60


def _status(code: int, body: str = "") -> dict[str, Any]:
    return {"statusCode": code, "body": body}


def _refused(status: int, refused: AppError, headers: dict[str, str] | None = None) -> dict[str, Any]:
    """The handshake's refusal as the REST API words its own: problem+json with the stable code."""
    title = {401: "Unauthorized", 429: "Too Many Requests"}.get(status, "Forbidden")
    body = {
        "type": "about:blank",
        "title": title,
        "status": status,
        "detail": refused.detail,
        "code": refused.code,
    }
    return {
        "statusCode": status,
        "headers": {"Content-Type": "application/problem+json", **(headers or {})},
        "body": json.dumps(body),
    }


def on_connect(event: dict[str, Any], connection_id: str) -> dict[str, Any]:
    services = bootstrap.services()
    ticket = (event.get("queryStringParameters") or {}).get("ticket")
    try:
        player_id = connections.connect(services, connection_id, ticket, now=services.now_epoch())
    except NotAuthenticated as refused:
        count("LiveRefused")
        return _refused(401, refused)
    except TooManyConnections as refused:
        count("LiveRefused")
        return _refused(429, refused, {"Retry-After": str(CAP_RETRY_AFTER_SECONDS)})
    logger.info("live connection opened", extra={"connection_id": connection_id, "player_id": player_id})
    count("LiveConnected")
    return _status(200)


@logger.inject_lambda_context(log_event=False)
@metrics.log_metrics()
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    request = event.get("requestContext") or {}
    route, connection_id = request.get("routeKey"), str(request.get("connectionId") or "")
    if route == "$connect":
        return on_connect(event, connection_id)
    services = bootstrap.services()
    if route == "$disconnect":
        connections.disconnect(services.live, connection_id)
        return _status(200)
    reply = watching.on_frame(services, connection_id, event.get("body"), now=services.now_epoch())
    return _status(200, json.dumps(reply, separators=(",", ":")))
