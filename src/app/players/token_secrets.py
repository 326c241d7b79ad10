"""A token's secret: drawn once, shown once, and kept only as its SHA-256 (sessions and personal tokens)."""

from __future__ import annotations

import hashlib
import secrets

_TOKEN_BYTES = 32  # 256 bits of secret: a fast hash is enough, nothing to brute-force


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def new_secret() -> str:
    return secrets.token_urlsafe(_TOKEN_BYTES)
