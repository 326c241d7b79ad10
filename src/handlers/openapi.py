"""The OpenAPI document: generated from the routes, then told what the generator cannot see.

Powertools derives paths and bodies from the code; the problem+json error shape, the caching and
idempotency headers live in handlers.problems and handlers.http, so they are added here, in one place.
Run `python -m handlers.openapi > openapi.json` to refresh the committed copy (a test fails on drift).
"""

from __future__ import annotations

import json
from typing import Any

from app.schemas import Problem

_PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}
_ERRORS = {
    "400": "Malformed request (for example invalid JSON or Idempotency-Key)",
    "401": "Missing or invalid bearer token",
    "403": "Not allowed: not a member, not the host, or a wrong invite code",
    "404": "No such game, deck or route",
    "409": "Not legal now, or lost a race to another move",
    "412": "If-Match no longer matches the game",
    "413": "Request body too large",
    "422": "Input that can never be valid (schema, clue, card ids, card count)",
    "500": "Unexpected error; logged with the correlation id",
}
_IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "Retry-safe POST: the first answer is replayed; the same key with another body is a 422.",
    "schema": {"type": "string", "maxLength": 128},
}
_IF_MATCH = {
    "name": "If-Match",
    "in": "header",
    "required": False,
    "description": "ETag from GET /games/{game_id}: apply only if the game has not changed (else 412).",
    "schema": {"type": "string"},
}
_IF_NONE_MATCH = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "description": "ETag from an earlier GET: 304 Not Modified while the game is unchanged for you.",
    "schema": {"type": "string"},
}
_MOVE_SUFFIXES = ("/leave", "/start", "/clue", "/submissions", "/votes")


def _problem_response(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/problem+json": {"schema": _PROBLEM_REF}}}


def document() -> dict[str, Any]:
    from handlers.api import openapi_json

    doc: dict[str, Any] = json.loads(openapi_json())
    schemas = doc.setdefault("components", {}).setdefault("schemas", {})
    schemas["Problem"] = Problem.model_json_schema()
    for name in ("HTTPValidationError", "ValidationError", "ResponseValidationError"):
        schemas.pop(name, None)
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            for status, description in _ERRORS.items():
                if status == "401" and "security" not in operation:
                    continue
                responses[status] = _problem_response(description)
            parameters = operation.setdefault("parameters", [])
            if method == "post" and path != "/players":
                parameters.append(_IDEMPOTENCY_KEY)
            if method == "post" and path.endswith(_MOVE_SUFFIXES):
                parameters.append(_IF_MATCH)
            if method == "get" and path == "/games/{game_id}":
                parameters.append(_IF_NONE_MATCH)
                responses["304"] = {"description": "Not Modified: your view has not changed"}
            if not parameters:
                del operation["parameters"]
    return doc


def render() -> str:
    # Sorted and indented so the committed file diffs cleanly.
    return json.dumps(document(), indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    print(render(), end="")
