"""The `Dixit-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, Stripe's style.

Signing the timestamp with the body lets a receiver refuse replays: a captured request stops verifying
once it is older than REPLAY_WINDOW_SECONDS. Several `v1=` values may appear (kept for secret rotation).
"""

from __future__ import annotations

import hashlib
import hmac

HEADER = "Dixit-Signature"
REPLAY_WINDOW_SECONDS = 300


def signature(secret: str, timestamp: int, body: bytes) -> str:
    return hmac.new(secret.encode(), str(timestamp).encode() + b"." + body, hashlib.sha256).hexdigest()


def sign(secret: str, timestamp: int, body: bytes) -> str:
    return f"t={timestamp},v1={signature(secret, timestamp, body)}"


def verify(
    secret: str, header: str, body: bytes, *, now: int, tolerance: int = REPLAY_WINDOW_SECONDS
) -> bool:
    """What a receiver does: the signature matches and the timestamp is within `tolerance` of `now`."""
    timestamp: int | None = None
    candidates: list[str] = []
    for part in header.split(","):
        key, _, value = part.strip().partition("=")
        if key == "t" and value.isdigit():
            timestamp = int(value)
        elif key == "v1":
            candidates.append(value)
    if timestamp is None or abs(now - timestamp) > tolerance:
        return False
    expected = signature(secret, timestamp, body)
    return any(hmac.compare_digest(expected, candidate) for candidate in candidates)
