"""The OpenAPI document and its Swagger UI page: only these two routes load the OpenAPI models and assets."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.event_handler import Response, content_types
from aws_lambda_powertools.event_handler.request import Request

from handlers.route_table import Endpoints

endpoint = Endpoints()


@endpoint("getOpenApiDocument")
def serve_openapi() -> Response[Any]:
    from handlers import openapi
    from handlers.api import whole_api

    return Response(
        status_code=200, content_type=content_types.APPLICATION_JSON, body=openapi.document(whole_api())
    )


@endpoint("getDocsPage")
def serve_docs(request: Request) -> Response[Any]:
    from handlers import openapi
    from handlers.api import whole_api

    if (request.resolved_event.query_string_parameters or {}).get("format") == "json":
        # Swagger UI names this URL as the source of the document it shows.
        return serve_openapi()
    return Response(status_code=200, content_type="text/html", body=openapi.swagger_page(whole_api()))
