"""The OpenAPI document and its Swagger UI page, built only when one of them is asked for.

Everything the document says is declared on the routes (parameters, headers, responses) and in
`configure`; nothing is edited after generation. This module is imported lazily by the two routes that
serve it, so a cold start of the API never pays for the OpenAPI models or the Swagger assets.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayRestResolver
from aws_lambda_powertools.event_handler.openapi import swagger_ui
from aws_lambda_powertools.event_handler.openapi.models import HTTPBearer, Server
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


def configure(app: APIGatewayRestResolver) -> None:
    app.configure_openapi(
        title=TITLE,
        version=VERSION,
        description=DESCRIPTION,
        servers=SERVERS,
        security_schemes={"bearerAuth": HTTPBearer(bearerFormat="opaque token")},
    )


def document(app: APIGatewayRestResolver) -> str:
    """The document, sorted and indented so the committed openapi.json diffs cleanly."""
    configure(app)
    spec = json.loads(app.get_openapi_json_schema())
    _headers_are_strings(spec)
    return json.dumps(spec, indent=2, sort_keys=True) + "\n"


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
