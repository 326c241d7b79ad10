"""Entity tags for a game as one viewer sees it: they change with the version and with the viewer."""

from __future__ import annotations

import hashlib


def game_etag(game_id: str, version: int, viewer_id: str | None) -> str:
    digest = hashlib.sha256(f"{game_id}:{version}:{viewer_id or '-'}".encode()).hexdigest()[:16]
    return f'"{version}-{digest}"'


def matches(header: str | None, etag: str) -> bool:
    """RFC 9110 list matching for If-Match / If-None-Match, weak tags compared weakly."""
    if header is None:
        return False
    candidates = [c.strip() for c in header.split(",")]
    return "*" in candidates or etag in (c.removeprefix("W/") for c in candidates)
