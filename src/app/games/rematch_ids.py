"""The rematch lobby's id: a pure function of the finished game's, so every call lands on one lobby."""

from __future__ import annotations

import hashlib


def rematch_id(game_id: str) -> str:
    """Shaped like any game id (`g_` and 16 hex digits), the same for every call about `game_id`."""
    return f"g_{hashlib.sha256(f'rematch:{game_id}'.encode()).hexdigest()[:16]}"
