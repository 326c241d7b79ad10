"""The authorization server's metadata (RFC 8414), from the API's own base URL."""

from __future__ import annotations

from typing import Any

from app.players.scopes import GRANTABLE, ordered


def metadata(issuer: str) -> dict[str, Any]:
    base = issuer.rstrip("/")
    return {
        "issuer": base,
        "authorization_endpoint": f"{base}/oauth/authorize",
        "token_endpoint": f"{base}/oauth/token",
        "response_types_supported": ["code"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none"],
        "scopes_supported": list(ordered(GRANTABLE)),
        "service_documentation": f"{base}/docs",
    }
