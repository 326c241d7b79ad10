"""Staging races on any Store: what another Lambda does between this one's read and its write."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.core.records import GameRecord


class Interleaved:
    """Delegates to a real store; the next reads of a game can be followed by a competing action."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self._after_next_loads: list[Callable[[], None]] = []
        self._acting = False  # the competing action's own reads are plain reads

    def after_next_load(self, action: Callable[[], None], times: int = 1) -> None:
        """Run `action` right after each of the next `times` game reads (the reader has the old state)."""
        self._after_next_loads += [action] * times

    def load_game(self, game_id: str) -> GameRecord | None:
        record = self.inner.load_game(game_id)
        if self._after_next_loads and not self._acting:
            action = self._after_next_loads.pop(0)
            self._acting = True
            try:
                action()
            finally:
                self._acting = False
        return record

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)
