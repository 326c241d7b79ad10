"""OAuth 2.1 for third-party apps (docs/tokens.md): metadata, the consent page's two calls, the token
endpoint; and the apps list of the player's account.

`GET /oauth/authorize` is where an app sends the player's browser: it answers 302 to the web client's
consent view (`WEB_BASE_URL` + `#/authorize?<the same query>`), which asks `GET /oauth/consent` (signed in
as the player) what the request is, in words, and posts the player's answer to `POST /oauth/authorize`.
The token endpoint takes a form and answers RFC 6749's JSON (never problem+json), `Cache-Control:
no-store` on every answer.
"""

from __future__ import annotations

import json
from typing import Annotated, Any
from urllib.parse import parse_qs, urlencode

from aws_lambda_powertools.event_handler import Response, content_types
from aws_lambda_powertools.event_handler.openapi.params import Query
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse
from aws_lambda_powertools.event_handler.request import Request

from app.flows import revoke_credentials
from app.oauth import consent
from app.oauth.errors import OAuthRefused
from app.oauth.metadata import metadata
from app.oauth.requests import check_request
from app.oauth.schemas import (
    AuthorizationOut,
    DecideAuthorization,
    Decided,
    OAuthErrorOut,
    TokenOut,
    authorization_out,
)
from handlers.http import Adapters, Signed, json_response, location
from handlers.problems import answers
from handlers.route_table import Endpoints

endpoint = Endpoints()
_NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}
_FORM = "application/x-www-form-urlencoded"
_LOOPBACK = ("127.0.0.1", "localhost", "[::1]")


def _param(description: str) -> Any:
    return Query(description=description, max_length=2000)


ClientId = Annotated[str, _param("The app's name or URL (no registration)")]
RedirectUri = Annotated[str, _param("https, loopback http (any port) or a private-use scheme; exact match")]
ResponseType = Annotated[str, _param("code")]
ScopeParam = Annotated[str, _param("Space-separated scopes (never account:owner)")]
State = Annotated[str, _param("Opaque; given back to the app as it was")]
Challenge = Annotated[str, _param("BASE64URL(SHA-256(code_verifier)), 43 to 128 characters")]
Method = Annotated[str, _param("S256 (plain is refused)")]


def issuer(request: Request, adapters: Adapters) -> str:
    """The API's own base URL: PUBLIC_API_URL, else the request's host (and stage, on execute-api)."""
    if adapters.settings.public_api_url:
        return adapters.settings.public_api_url.rstrip("/")
    headers = request.headers
    host = str(headers.get("host") or "localhost")
    loopback = host.startswith(_LOOPBACK)
    scheme = str(headers.get("x-forwarded-proto") or ("http" if loopback else "https"))
    return f"{scheme}://{host}{location(request, '')}"


@endpoint(
    "getAuthorizationServerMetadata",
    summary="The authorization server's metadata (RFC 8414)",
    **answers({200: {"description": "Endpoints, grant types, PKCE methods and scopes"}}),
)
def get_metadata(request: Request, adapters: Adapters) -> Response[Any]:
    return Response(
        status_code=200,
        content_type=content_types.APPLICATION_JSON,
        body=json.dumps(metadata(issuer(request, adapters))),
        headers={"Cache-Control": "max-age=3600"},
    )


_CONSENT_VIEW: dict[int, OpenAPIResponse] = {
    302: {
        "description": "To the web client's consent page, with the same query",
        "content": {},
        "headers": {
            "Location": {"description": "WEB_BASE_URL/#/authorize?<query>", "schema": {"type": "string"}}
        },
    }
}


@endpoint(
    "authorizeApp",
    summary="Where an app sends the player: the consent page in the web client (OAuth 2.1, PKCE S256)",
    description=(
        "Answers 302 to the web client's consent view, which checks the request (GET /oauth/consent) "
        "before showing it; a bad redirect_uri or client_id is shown there, never redirected to."
    ),
    **answers(_CONSENT_VIEW),
)
def authorize_app(
    adapters: Adapters,
    client_id: ClientId = "",
    redirect_uri: RedirectUri = "",
    response_type: ResponseType = "",
    scope: ScopeParam = "",
    state: State = "",
    code_challenge: Challenge = "",
    code_challenge_method: Method = "",
) -> Response[None]:
    query = {
        "client_id": client_id,
        "redirect_uri": redirect_uri,
        "response_type": response_type,
        "scope": scope,
        "state": state,
        "code_challenge": code_challenge,
        "code_challenge_method": code_challenge_method,
    }
    given = urlencode({name: value for name, value in query.items() if value})
    web = adapters.settings.web_base_url.rstrip("/")
    return Response(status_code=302, headers={"Location": f"{web}/#/authorize?{given}", **_NO_STORE})


@endpoint(
    "describeAuthorization",
    summary="What an app's authorization request asks, in words, once checked (for the consent page)",
    description=(
        "400 with the refusal's `code` (invalid_redirect_uri, invalid_client_id, pkce_s256_required, "
        "invalid_code_challenge, unknown_scope, scope_not_grantable, …) when the app asked wrongly."
    ),
    **answers({200: {"description": "The request, checked"}}, 400, 401, 403),
)
def describe_authorization(
    signed: Signed,
    client_id: ClientId = "",
    redirect_uri: RedirectUri = "",
    response_type: ResponseType = "",
    scope: ScopeParam = "",
    state: State = "",
    code_challenge: Challenge = "",
    code_challenge_method: Method = "",
) -> Response[AuthorizationOut]:
    checked = check_request(
        client_id=client_id,
        redirect_uri=redirect_uri,
        response_type=response_type,
        scope=scope,
        state=state,
        code_challenge=code_challenge,
        code_challenge_method=code_challenge_method,
    )
    return json_response(authorization_out(checked), headers=_NO_STORE)


@endpoint(
    "decideAuthorization",
    summary="Approve or refuse an app (your own session only): where the browser goes next",
    description=(
        "The request is checked again as GET /oauth/consent does. Approved: a single-use code, valid "
        f"{consent.CODE_SECONDS} s, bound to the PKCE challenge, redirect_uri, client_id and you."
    ),
    **answers({200: {"description": "The redirect URL for the browser"}}, 400, 401, 403, 413, 415),
)
def decide_authorization(body: DecideAuthorization, signed: Signed, adapters: Adapters) -> Response[Decided]:
    checked = check_request(
        client_id=body.client_id,
        redirect_uri=body.redirect_uri,
        response_type=body.response_type,
        scope=body.scope,
        state=body.state,
        code_challenge=body.code_challenge,
        code_challenge_method=body.code_challenge_method,
    )
    where = consent.decide(adapters, signed.player.player_id, signed.scopes, checked, approve=body.approve)
    return json_response(Decided(redirect_to=where), headers=_NO_STORE)


_TOKEN_ANSWERS: dict[int, OpenAPIResponse] = {
    200: {"description": "Tokens", "content": {"application/json": {"model": TokenOut}}},
    400: {
        "description": "RFC 6749 §5.2 error (not problem+json)",
        "content": {"application/json": {"model": OAuthErrorOut}},
    },
}


def _oauth_json(status: int, body: dict[str, Any]) -> Response[Any]:
    return Response(
        status_code=status,
        content_type=content_types.APPLICATION_JSON,
        body=json.dumps(body),
        headers=_NO_STORE,
    )


def _form(request: Request) -> dict[str, str]:
    kind = str(request.headers.get("content-type") or "").split(";")[0].strip().lower()
    if kind != _FORM:
        raise OAuthRefused("invalid_request", f"send the parameters as {_FORM}")
    fields = parse_qs(request.resolved_event.body or "", keep_blank_values=True)
    repeated = sorted(name for name, values in fields.items() if len(values) > 1)
    if repeated:
        raise OAuthRefused("invalid_request", f"{repeated[0][:40]} is given more than once")
    return {name: values[0] for name, values in fields.items()}


@endpoint(
    "issueAppToken",
    summary="Exchange a code (with its PKCE verifier) or a refresh token for tokens (RFC 6749 form)",
    description=(
        "grant_type=authorization_code: code, redirect_uri (exactly as authorized), client_id, "
        "code_verifier. grant_type=refresh_token: refresh_token, client_id; the refresh token rotates, "
        "and one presented again after its rotation revokes the app's grant. Errors are RFC 6749 JSON."
    ),
    **answers(_TOKEN_ANSWERS, 413),
)
def issue_token(request: Request, adapters: Adapters) -> Response[Any]:
    try:
        issued = revoke_credentials.issue_app_token(adapters, _form(request))
    except OAuthRefused as refused:
        return _oauth_json(400, {"error": refused.error, "error_description": refused.detail})
    answer = TokenOut(
        access_token=issued.access_token,
        expires_in=issued.expires_in,
        refresh_token=issued.refresh_token,
        scope=" ".join(issued.scopes),
    )
    return _oauth_json(200, answer.model_dump(mode="json"))
