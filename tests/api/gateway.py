"""The real lambda_handler behind the local stack's API Gateway, in-process: raw HTTP in, raw HTTP out.

For tests that need what API Gateway does around the handler (routes from template.yaml, 405 for
unknown methods, binary bodies passed as base64), without a socket. `wsgi_app` serves it to WSGI
clients such as schemathesis.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from local_stack.gateway import Gateway
from local_stack.responses import HttpResponse
from local_stack.template import api_cors_headers, api_routes, functions, load_template


@cache
def gateway() -> Gateway:
    template = load_template()

    def resolve() -> Any:
        from handlers.api import lambda_handler

        return lambda_handler

    return Gateway(
        api_routes(template),
        resolve,
        functions=functions(template),
        cors_headers=api_cors_headers(template),
        stage="test",
    )


def send(method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b"") -> HttpResponse:
    return gateway().handle(method, path, list((headers or {}).items()), body)


def header(response: HttpResponse, name: str) -> str | None:
    return next((v for k, v in response.headers if k.lower() == name.lower()), None)


StartResponse = Callable[[str, list[tuple[str, str]]], Any]


def wsgi_app(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
    length = int(environ.get("CONTENT_LENGTH") or 0)
    body = environ["wsgi.input"].read(length) if length else b""
    headers = [
        (key[5:].replace("_", "-").title(), value)
        for key, value in environ.items()
        if key.startswith("HTTP_")
    ]
    if environ.get("CONTENT_TYPE"):
        headers.append(("Content-Type", environ["CONTENT_TYPE"]))
    # The target as sent (still percent-encoded) when the server keeps it; the gateway decodes it once.
    target = environ.get("RAW_URI") or environ.get("REQUEST_URI")
    if not target:
        target = environ.get("PATH_INFO", "/")
        if environ.get("QUERY_STRING"):
            target += "?" + environ["QUERY_STRING"]
    response = gateway().handle(environ["REQUEST_METHOD"], target, headers, body)
    reason = {200: "OK", 201: "Created", 204: "No Content", 304: "Not Modified"}.get(
        response.status, "Status"
    )
    start_response(f"{response.status} {reason}", list(response.headers))
    return [response.body]
