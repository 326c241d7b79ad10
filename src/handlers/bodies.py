"""Reading a request body before the resolver does: bytes, encoding, media type, depth and JSON syntax.

API Gateway hands the body over as text, or base64 when it is binary; either way it may be anything. The
resolver would decode and parse it with the standard library, where invalid UTF-8, 2,000 nested
brackets or a 5,000-digit number raise errors it does not expect (a 500). Each is a 4xx here instead.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from handlers.problems import MalformedRequest, PayloadTooLarge, UnsupportedMediaType

# Every request body of this API is a flat object with a list at most: deeper nesting is never valid.
MAX_NESTING = 32


def body_bytes(event: dict[str, Any]) -> bytes:
    """The body as the client sent it, whether API Gateway passed it as text or as base64."""
    raw = event.get("body")
    if not raw:
        return b""
    if event.get("isBase64Encoded"):
        try:
            return base64.b64decode(raw, validate=True)
        except (binascii.Error, ValueError):
            raise MalformedRequest("malformed_body", "the request body is not valid base64") from None
    try:
        return str(raw).encode()
    except UnicodeEncodeError:  # lone surrogates: the bytes behind them were not UTF-8
        raise MalformedRequest("invalid_utf8", "the request body is not valid UTF-8") from None


def check_size(data: bytes, limit: int) -> None:
    if len(data) > limit:
        raise PayloadTooLarge("payload_too_large", f"request bodies are limited to {limit} bytes")


def decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise MalformedRequest("invalid_utf8", "the request body is not valid UTF-8") from None


def is_json_media_type(content_type: str | None) -> bool:
    media_type, _, params = (content_type or "").partition(";")
    media_type = media_type.strip().lower()
    if media_type != "application/json" and not (
        media_type.startswith("application/") and media_type.endswith("+json")
    ):
        return False
    charset = next(
        (value.strip().strip('"').lower() for name, _, value in
         (p.partition("=") for p in params.split(";")) if name.strip().lower() == "charset"),
        "utf-8",
    )  # fmt: skip
    return charset in ("utf-8", "utf8")


def check_media_type(content_type: str | None) -> None:
    if not is_json_media_type(content_type):
        raise UnsupportedMediaType(
            "unsupported_media_type", "send the request body as 'Content-Type: application/json'"
        )


def nesting_depth(text: str, limit: int = MAX_NESTING) -> int:
    """How deep brackets nest outside strings, counting no further than `limit + 1` (linear, no recursion)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > limit:
                break
        elif char in "]}":
            depth -= 1
    return deepest


def parse(text: str) -> Any:
    """The JSON value of a body the resolver may safely parse again; 400 for anything it could not."""
    # Fewer brackets than the limit cannot nest past it: only a body with more needs the walk.
    if text.count("[") + text.count("{") > MAX_NESTING and nesting_depth(text) > MAX_NESTING:
        raise MalformedRequest("too_deeply_nested", f"JSON may nest at most {MAX_NESTING} levels deep")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):  # ValueError covers integers past Python's digit limit
        raise MalformedRequest("malformed_json", "the request body is not valid JSON") from None
    if isinstance(value, list):
        # The resolver would quietly take the first element of a list; every body here is an object.
        raise MalformedRequest("body_not_an_object", "the request body must be a JSON object")
    return value
