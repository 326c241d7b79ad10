"""Entity tags for a game as one viewer sees it: they change with the version and with the viewer."""

from __future__ import annotations

import hashlib


def game_etag(game_id: str, version: int, viewer_id: str | None) -> str:
    digest = hashlib.sha256(f"{game_id}:{version}:{viewer_id or '-'}".encode()).hexdigest()[:16]
    return f'"{version}-{digest}"'


def matches(header: str | None, etag: str, *, weak: bool = True) -> bool:
    """RFC 9110 list matching: weak comparison for If-None-Match, strong (weak=False) for If-Match."""
    if header is None:
        return False
    candidates = [c.strip() for c in header.split(",")]
    if "*" in candidates:
        return True
    return etag in (c.removeprefix("W/") if weak else c for c in candidates)
