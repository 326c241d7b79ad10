"""The signed-in player's answer to an app's authorization request: a code for the app, or a refusal.

Only the player's own session answers (the route needs `account:owner`: no token, not even an app's, can
approve an app). The code is single-use, lives a few minutes, and is bound to the PKCE challenge, the
redirect URI (as the exact string), the client id, the scopes and the player. Only its hash is stored.
"""

from __future__ import annotations

import hashlib
import secrets
from urllib.parse import urlencode

from app.core.errors import InsufficientScope
from app.oauth.ports import AuthorizationCode, Authorizing
from app.oauth.requests import AuthorizationRequest
from app.players.scopes import Scope

# Long enough for a browser to come back to an app that exchanges the code at once; short enough that a
# code found in a log or a history is of no use (RFC 6749 §4.1.2 says at most ten minutes).
CODE_SECONDS = 300
_CODE_BYTES = 32


def hash_code(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def redirect_to(redirect_uri: str, **params: str) -> str:
    """The app's redirect URI with `params` added to its query (it never has a fragment: redirects)."""
    given = {name: value for name, value in params.items() if value}
    return f"{redirect_uri}{'&' if '?' in redirect_uri else '?'}{urlencode(given)}"


def decide(
    services: Authorizing,
    player_id: str,
    caller_scopes: frozenset[str] | None,
    request: AuthorizationRequest,
    *,
    approve: bool,
) -> str:
    """Where the player's browser goes next: the app's redirect URI with a code (approved) or with
    `error=access_denied` (refused), and the app's `state` either way."""
    if caller_scopes is not None:
        raise InsufficientScope(Scope.OWNER.value)
    if not approve:
        return redirect_to(request.redirect_uri, error="access_denied", state=request.state)
    code = secrets.token_urlsafe(_CODE_BYTES)
    services.oauth_codes.put_code(
        AuthorizationCode(
            hash_code(code),
            player_id,
            request.client_id,
            request.redirect_uri,
            request.scopes,
            request.code_challenge,
            services.now_epoch() + CODE_SECONDS,
        )
    )
    return redirect_to(request.redirect_uri, code=code, state=request.state)
