"""An authorization request (`GET /oauth/authorize`'s query), checked before the player is asked (pure).

The redirect URI and the client id are checked first: until both are good, a refusal is shown to the
player and never sent anywhere (no open redirect). Then what RFC 6749 and RFC 7636 ask of the rest:
`response_type=code`, a well-formed S256 challenge (`plain` is refused: OAuth 2.1), known scopes an app
may hold (never `account:owner`), and an opaque `state` the app gets back as it was.
"""

from __future__ import annotations

from app.oauth import pkce
from app.oauth.errors import OAuthRefused
from app.oauth.redirects import check_client_id, check_redirect_uri
from app.players.scopes import GRANTABLE, Scope, ordered
from dixit.lean_dataclass import dataclass

MAX_STATE = 500


@dataclass(frozen=True, slots=True)
class AuthorizationRequest:
    client_id: str
    redirect_uri: str
    scopes: tuple[str, ...]  # app.players.scopes.ordered
    state: str
    code_challenge: str


def check_scope(scope: str) -> tuple[str, ...]:
    """The space-separated scopes an app asked for: at least one, each grantable."""
    asked = set(scope.split())
    if Scope.OWNER.value in asked:
        raise OAuthRefused(
            "invalid_scope", f"no app may hold {Scope.OWNER.value}", code="scope_not_grantable"
        )
    unknown = sorted(asked - {s.value for s in GRANTABLE})
    if unknown:
        raise OAuthRefused("invalid_scope", f"there is no scope {unknown[0][:40]}", code="unknown_scope")
    if not asked:
        raise OAuthRefused("invalid_scope", "ask for at least one scope", code="no_scopes")
    return ordered(asked)


def check_request(
    *,
    client_id: str,
    redirect_uri: str,
    response_type: str,
    scope: str,
    state: str,
    code_challenge: str,
    code_challenge_method: str,
) -> AuthorizationRequest:
    """The request, if the player may be asked about it; OAuthRefused otherwise."""
    uri = check_redirect_uri(redirect_uri)
    client = check_client_id(client_id)
    if response_type != "code":
        raise OAuthRefused(
            "unsupported_response_type", "response_type must be code", code="unsupported_response_type"
        )
    if code_challenge_method != "S256":
        raise OAuthRefused(
            "invalid_request",
            "PKCE is required with code_challenge_method S256 (plain is refused)",
            code="pkce_s256_required",
        )
    if not pkce.is_challenge(code_challenge):
        raise OAuthRefused(
            "invalid_request",
            "code_challenge must be 43 to 128 base64url characters (BASE64URL(SHA-256(verifier)))",
            code="invalid_code_challenge",
        )
    if len(state) > MAX_STATE or any(not (" " <= char <= "~") for char in state):
        raise OAuthRefused(
            "invalid_request",
            f"state must be at most {MAX_STATE} printable ASCII characters",
            code="invalid_state",
        )
    return AuthorizationRequest(client, uri, check_scope(scope), state, code_challenge)
