"""PKCE (RFC 7636), S256 only: the code is bound to a challenge, and only its verifier redeems it."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re

# BASE64URL(SHA-256(verifier)) is 43 characters; 43 to 128 of base64url's alphabet is what we take.
_CHALLENGE = re.compile(r"^[A-Za-z0-9_-]{43,128}$")
# RFC 7636 §4.1: 43 to 128 unreserved characters.
_VERIFIER = re.compile(r"^[A-Za-z0-9._~-]{43,128}$")


def is_challenge(challenge: str) -> bool:
    return bool(_CHALLENGE.fullmatch(challenge))


def challenge_of(verifier: str) -> str:
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def verifies(verifier: str, challenge: str) -> bool:
    """Whether `verifier` is the one `challenge` was made from (constant time once well-formed)."""
    if not _VERIFIER.fullmatch(verifier):
        return False
    return hmac.compare_digest(challenge_of(verifier), challenge)
