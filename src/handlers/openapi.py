"""The OpenAPI document and its Swagger UI page, built only when one of them is asked for.

Everything the document says about the API is declared with the routes: operation ids, tags and security
in the route table (handlers.route_table), parameters, headers and responses on each route's function,
and the rest in `configure`. The one
addition after generation is OpenAPI 3.1's `webhooks`, which Powertools cannot declare: the events a
webhook receives, from the very models the events feed serves. This module is imported lazily by the two
routes that serve it, so a cold start of the API never pays for the OpenAPI models or the Swagger assets.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayRestResolver
from aws_lambda_powertools.event_handler.openapi import swagger_ui
from aws_lambda_powertools.event_handler.openapi.models import (
    HTTPBearer,
    OAuth2,
    OAuthFlowAuthorizationCode,
    OAuthFlows,
    Server,
)
from aws_lambda_powertools.event_handler.openapi.swagger_ui import generate_swagger_html

TITLE = "Dixit by mail"
VERSION = "1.0.0"
DESCRIPTION = (
    "Play Dixit asynchronously. Authenticate with `Authorization: Bearer <token>` from `POST /players`. "
    "POST routes accept `Idempotency-Key`; `GET /games/{game_id}` answers `If-None-Match` with 304; "
    "move routes accept `If-Match` (412 when stale). "
    "Errors are application/problem+json with a stable `code`."
)
# Relative: Swagger UI resolves it against the page it is on, so "Try it out" reaches the API whether
# it is served at the root (`make run`) or under a stage prefix (/dev).
SERVERS = [Server(url=".", description="This API, wherever this document is served from")]
_SWAGGER_ASSETS = Path(swagger_ui.__file__).parent


def _webhooks() -> tuple[dict[str, Any], dict[str, Any]]:
    """One OpenAPI 3.1 webhook per event type, and the event models its bodies name."""
    from app.feed.events import EVENT_ADAPTER, EVENT_TYPES

    schema = EVENT_ADAPTER.json_schema(ref_template="#/components/schemas/{model}")
    models = {
        entry["properties"]["type"]["default"]: entry
        for entry in schema["$defs"].values()
        if "type" in entry.get("properties", {})
    }
    signature = 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>"> with the webhook\'s secret'
    headers = [
        ("Dixit-Signature", signature),
        ("Dixit-Delivery", "The delivery's id: the same for every retry of one delivery"),
        ("Dixit-Event", "The event type, as in the body's `type`"),
        ("Dixit-Attempt", "1 for the first try, then 2, 3, …"),
    ]
    out: dict[str, Any] = {}
    string = {"type": "string"}
    for event_type in EVENT_TYPES:
        name = models[event_type]["title"]
        out[event_type] = {
            "post": {
                "operationId": f"on{name}",
                "summary": f"{event_type}: sent to every webhook of each player who may see it",
                "tags": ["webhooks"],
                "parameters": [
                    {"name": h, "in": "header", "required": True, "description": text, "schema": string}
                    for h, text in headers
                ],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{name}"}}},
                },
                "responses": {
                    "2XX": {"description": "Delivered; any other answer (or none within 5 s) is retried"}
                },
            }
        }
    return out, schema["$defs"]


def configure(app: APIGatewayRestResolver) -> None:
    app.configure_openapi(
        title=TITLE,
        version=VERSION,
        description=DESCRIPTION,
        servers=SERVERS,
        security_schemes={
            "bearerAuth": HTTPBearer(bearerFormat="opaque token", description=_bearer_description()),
            "oauth2": _oauth2(),
        },
    )


def _oauth2() -> OAuth2:
    """Apps sign a player in with authorization code + PKCE (S256), no registration (docs/tokens.md).
    The URLs are relative to this document, so they hold at the root and under a stage alike."""
    from app.players.scopes import GRANTABLE, MEANINGS, Scope

    flow = OAuthFlowAuthorizationCode(
        authorizationUrl="oauth/authorize",
        tokenUrl="oauth/token",
        refreshUrl="oauth/token",
        scopes={scope.value: MEANINGS[scope] for scope in Scope if scope in GRANTABLE},
    )
    return OAuth2(
        flows=OAuthFlows(authorizationCode=flow),
        description=(
            "Authorization code with PKCE (S256 only; RFC 7636) for third-party apps: `client_id` is the "
            "app's name or URL (no registration), no client secret. Metadata: "
            "`/.well-known/oauth-authorization-server`. Access tokens live an hour; refresh tokens rotate "
            "on every use, and one used twice revokes the app. The player sees and revokes apps at "
            "`/players/me/apps`."
        ),
    )


def _bearer_description() -> str:
    """What a token is and the scopes each operation's `security` names (docs/tokens.md)."""
    from app.players.scopes import MEANINGS

    scopes = "; ".join(f"`{scope.value}`: {meaning}" for scope, meaning in MEANINGS.items())
    return (
        "A session token (`p_<player>.s_<session>.<secret>`, from `POST /players` or signing in) holds "
        "every scope. A personal token (`p_<player>.t_<token>.<secret>`, from "
        "`POST /players/me/personal-tokens`) holds the scopes it was given, never `account:owner`; "
        "outside them it is answered 403 `insufficient_scope` naming the scope. Each operation's "
        f"`security` names the scope it needs. Scopes: {scopes}."
    )


def document(app: APIGatewayRestResolver) -> str:
    """The document, sorted and indented so the committed openapi.json diffs cleanly."""
    configure(app)
    doc = json.loads(app.get_openapi_json_schema())
    _headers_are_strings(doc)
    webhooks, models = _webhooks()
    schemas = doc.setdefault("components", {}).setdefault("schemas", {})
    for name, model in models.items():
        schemas.setdefault(name, model)
    doc["webhooks"] = webhooks
    _token_form(doc)
    return json.dumps(doc, indent=2, sort_keys=True) + "\n"


def _token_form(spec: dict[str, Any]) -> None:
    """The token endpoint's body is a form (RFC 6749 §4.1.3), which its route reads itself so that its
    errors are RFC 6749's JSON rather than problems: the document says so here."""
    operation = spec.get("paths", {}).get("/oauth/token", {}).get("post")
    if operation is None:
        return
    text = {"type": "string"}
    fields = {
        "grant_type": {"type": "string", "enum": ["authorization_code", "refresh_token"]},
        "code": {**text, "description": "authorization_code: the code from the redirect"},
        "redirect_uri": {**text, "description": "authorization_code: exactly as in the authorization"},
        "code_verifier": {**text, "description": "authorization_code: the PKCE verifier (43-128 chars)"},
        "client_id": {**text, "description": "The app's name or URL, as in the authorization"},
        "refresh_token": {**text, "description": "refresh_token: the latest refresh token"},
        "scope": {**text, "description": "refresh_token: optional; the scopes granted, unchanged"},
    }
    schema = {"type": "object", "required": ["grant_type", "client_id"], "properties": fields}
    operation["requestBody"] = {
        "required": True,
        "content": {"application/x-www-form-urlencoded": {"schema": schema}},
    }


def _headers_are_strings(spec: dict[str, Any]) -> None:
    """An optional header is absent or a string: never JSON null, which Powertools' `str | None` reads
    as allowed (and a client would send as the four letters "null")."""
    for operations in spec.get("paths", {}).values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []) if isinstance(operation, dict) else []:
                schema = parameter.get("schema", {})
                if parameter.get("in") == "header" and "anyOf" in schema:
                    kept = [s for s in schema["anyOf"] if s != {"type": "null"}]
                    if len(kept) == 1:
                        del schema["anyOf"]
                        schema.update(kept[0])


def swagger_page(app: APIGatewayRestResolver) -> str:
    """Swagger UI with the very document /openapi.json serves embedded (assets bundled by Powertools)."""
    spec = document(app).replace("</", "<\\/")  # the JSON sits inside a <script> element
    js = (_SWAGGER_ASSETS / "swagger-ui-bundle.min.js").read_text(encoding="utf-8")
    css = (_SWAGGER_ASSETS / "swagger-ui.min.css").read_text(encoding="utf-8")
    return generate_swagger_html(spec, js, css, "", None)
