"""The signed-in player's answer to an app's authorization request: a code for the app, or a refusal.

Only the player's own session answers (the route needs `account:owner`: no token, not even an app's, can
approve an app). The code is single-use, lives a few minutes, and is bound to the PKCE challenge, the
redirect URI (as the exact string), the client id, the scopes and the player. Only its hash is stored.

Each approval supersedes the codes given before it to the same app: the code is noted as the app's newest
beside the player's grants, and an exchange writes the grant only from the noted code (in the grant's own
conditional write), so an older, wider code kept unused can neither widen the grant again nor outlive a
revocation (which drops the note with the grant).
"""

from __future__ import annotations

import hashlib
import secrets
from urllib.parse import urlencode

from app.core.errors import InsufficientScope
from app.oauth.ports import AuthorizationCode, Authorizing
from app.oauth.requests import AuthorizationRequest
from app.players.app_tokens import grant_id_for
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
    given = AuthorizationCode(
        hash_code(code),
        player_id,
        request.client_id,
        request.redirect_uri,
        request.scopes,
        request.code_challenge,
        services.now_epoch() + CODE_SECONDS,
    )
    # The note first: a fault between the two writes leaves the earlier codes superseded and no new one,
    # never a code that could make the grant after a newer consent.
    grant_id = grant_id_for(player_id, request.client_id)
    services.app_grants.note_app_code(player_id, grant_id, given.code_hash, given.expires_at)
    services.oauth_codes.put_code(given)
    return redirect_to(request.redirect_uri, code=code, state=request.state)
