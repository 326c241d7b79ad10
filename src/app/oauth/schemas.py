"""Request and response bodies of the OAuth routes and the apps list (`/oauth/…`, `/players/me/apps`)."""

from __future__ import annotations

from typing import Literal

from app.core.examples import STAMP
from app.core.schema_base import Request, Schema, doc
from app.oauth.redirects import MAX_CLIENT_ID, MAX_REDIRECT_URI
from app.oauth.requests import MAX_STATE, AuthorizationRequest
from app.players.ports import AppGrantRecord
from app.players.scopes import MEANINGS, Scope

_CLIENT = "https://bot.example.org"
_REDIRECT = "http://127.0.0.1:8765/callback"
_CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
GRANT_ID = "a_4f1c2b3a5d6e7f80"


class DecideAuthorization(Request):
    """The player's answer to an app's authorization request: the request's own fields, and `approve`."""

    client_id: str = doc("The app's name or URL, as the app sent it", _CLIENT, max_length=MAX_CLIENT_ID)
    redirect_uri: str = doc("Exactly as the app sent it", _REDIRECT, max_length=MAX_REDIRECT_URI)
    response_type: str = doc("code (the only type)", "code", default="code", max_length=40)
    scope: str = doc("Space-separated scopes, as the app asked", "games:read games:play", max_length=400)
    state: str = doc("The app's state, as it sent it", "af0ifjsldkj", default="", max_length=MAX_STATE)
    code_challenge: str = doc("The app's PKCE challenge", _CHALLENGE, max_length=200)
    code_challenge_method: str = doc("S256 (plain is refused)", "S256", default="", max_length=20)
    approve: bool = doc("true: let the app act for you; false: refuse it", True)


class ScopeMeaning(Schema):
    scope: str = doc("The scope", "games:play")
    meaning: str = doc("What it lets the app do, in plain words", MEANINGS[Scope.GAMES_PLAY])


class AuthorizationOut(Schema):
    client_id: str = doc("The app, as it names itself (its name or URL: nobody vouched for it)", _CLIENT)
    redirect_uri: str = doc("Where your browser goes back to the app", _REDIRECT)
    scopes: list[ScopeMeaning] = doc(
        "What the app asks to do", [{"scope": "games:play", "meaning": MEANINGS[Scope.GAMES_PLAY]}]
    )
    state: str = doc("The app's own value, given back to it as it was", "af0ifjsldkj")


class Decided(Schema):
    redirect_to: str = doc(
        "Where the browser goes now: the app's redirect URI with `code` and `state` (approved), or "
        "`error=access_denied` and `state` (refused)",
        f"{_REDIRECT}?code=Qm9n…&state=af0ifjsldkj",
    )


class TokenOut(Schema):
    access_token: str = doc("Bearer token `p_<player>.a_<grant>.<secret>`, for an hour", "p_…a_….kq3…")
    token_type: Literal["Bearer"] = doc("Always Bearer", "Bearer", default="Bearer")
    expires_in: int = doc("Seconds the access token lives", 3600)
    refresh_token: str = doc(
        "`p_<player>.r_<grant>.<secret>`: single-use, exchanged at this endpoint for new tokens",
        "p_…r_….zx9…",
    )
    scope: str = doc("The scopes granted, space-separated", "games:read games:play")


class OAuthErrorOut(Schema):
    error: str = doc(
        "RFC 6749 §5.2: invalid_request, invalid_client, invalid_grant, unsupported_grant_type, "
        "invalid_scope",
        "invalid_grant",
    )
    error_description: str = doc("What was wrong, for a developer", "the code is unknown, used or expired")


class AppOut(Schema):
    grant_id: str = doc("The app's grant: revoke it with DELETE /players/me/apps/{grant_id}", GRANT_ID)
    client_id: str = doc("The app, as it named itself", _CLIENT)
    scopes: list[str] = doc("What it may do", ["games:read", "games:play"])
    redirect_uri: str = doc("Where it was signed in to", _REDIRECT)
    created_at: str = doc("When you approved it (the last time)", STAMP)
    last_used_at: str | None = doc("When its token was last used, to within a minute (null: never)", STAMP)


EXAMPLE_APPS = [
    {
        "grant_id": GRANT_ID,
        "client_id": _CLIENT,
        "scopes": ["games:read", "games:play"],
        "redirect_uri": _REDIRECT,
        "created_at": STAMP,
        "last_used_at": None,
    }
]


class AppList(Schema):
    apps: list[AppOut] = doc("Every app you let act for you, oldest first; never a token", EXAMPLE_APPS)


def authorization_out(request: AuthorizationRequest) -> AuthorizationOut:
    return AuthorizationOut(
        client_id=request.client_id,
        redirect_uri=request.redirect_uri,
        scopes=[ScopeMeaning(scope=s, meaning=MEANINGS[Scope(s)]) for s in request.scopes],
        state=request.state,
    )


def app_out(grant: AppGrantRecord) -> AppOut:
    return AppOut(
        grant_id=grant.grant_id,
        client_id=grant.client_id,
        scopes=list(grant.scopes),
        redirect_uri=grant.redirect_uri,
        created_at=grant.created_at,
        last_used_at=grant.last_used_at or None,
    )
