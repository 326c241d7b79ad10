"""One-click unsubscribe (RFC 8058): the link every notification mail carries, with no sign-in.

`POST` (what mail clients send, body `List-Unsubscribe=One-Click`) unsubscribes; `GET` (a person, or a
scanner, opening the link) only says what the POST would do and offers a button for it.
"""

from __future__ import annotations

from html import escape
from typing import Annotated, Any
from urllib.parse import quote

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse
from aws_lambda_powertools.event_handler.request import Request

from app.notify.email import unsubscribe
from app.notify.email.unsubscribe_schemas import TOKEN_PATTERN, UnsubscribeOut
from handlers.http import Adapters, json_response
from handlers.problems import answers
from handlers.route_table import Endpoints

endpoint = Endpoints()
Token = Annotated[str, Query(pattern=TOKEN_PATTERN, description="The signed token of the mail's link")]
_OK: dict[int, OpenAPIResponse] = {
    200: {"description": "What the link stops (HTML for a browser that asks for it)"}
}


def _wants_html(request: Request) -> bool:
    return "text/html" in (request.headers.get("accept") or "")


def _page(title: str, body: str) -> Response[Any]:
    page = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title></head><body><main><h1>{escape(title)}</h1>{body}</main></body></html>"
    )
    headers = {
        "Cache-Control": "no-store",
        "Content-Security-Policy": "default-src 'none'; form-action 'self'",
    }
    return Response(status_code=200, content_type="text/html; charset=utf-8", body=page, headers=headers)


@endpoint(
    "previewUnsubscribe",
    summary="What an unsubscribe link would stop; changes nothing (link scanners open links)",
    **answers(_OK, 422),
)
def preview_unsubscribe(request: Request, token: Token, adapters: Adapters) -> Response[Any]:
    scope = unsubscribe.preview(adapters, token)
    what = unsubscribe.describe(scope)
    if _wants_html(request):
        action = f"?token={quote(token, safe='')}"
        return _page(
            "Unsubscribe?",
            f"<p>Stop {escape(what)}?</p>"
            f'<form method="post" action="{escape(action, quote=True)}">'
            '<input type="hidden" name="List-Unsubscribe" value="One-Click">'
            "<button type=submit>Unsubscribe</button></form>",
        )
    return json_response(
        UnsubscribeOut(scope=scope.value, unsubscribed=False, detail=f"POST here to stop {what}.")
    )


@endpoint(
    "unsubscribe",
    summary="Unsubscribe in one click (RFC 8058); no sign-in: the token is signed",
    **answers(_OK, 422),
)
def post_unsubscribe(request: Request, token: Token, adapters: Adapters) -> Response[Any]:
    scope = unsubscribe.unsubscribe(adapters, token)
    detail = f"You will get no more {unsubscribe.describe(scope)}; change it in the app's settings."
    if _wants_html(request):
        return _page("Unsubscribed", f"<p>{escape(detail)}</p>")
    return json_response(UnsubscribeOut(scope=scope.value, unsubscribed=True, detail=detail))
