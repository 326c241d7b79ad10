"""The game states a warm function last wrote or read, by their stored bytes: a read of the same bytes
skips decompressing and decoding them.

A move reads the state the previous move wrote, and a game's players poll it; in a warm Lambda, the
state this function just wrote (or read) is very often the one its next request reads. Decoding a state
is pure, so the same bytes always give the same state: the memory can never answer anything stale or
another game's (a changed game is other bytes). It hands out copies, since a GameState is mutable and
its readers own what they read. Bounded and oldest-first: a few dozen states of a few KB each.
"""

from __future__ import annotations

import threading

from dixit.state import GameState

# Enough for the games one warm function serves at once; each entry is one decoded state.
LIMIT = 64


class RememberedStates:
    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self._states: dict[bytes, GameState] = {}
        # The local stack serves requests on threads: eviction must not race a lookup.
        self._lock = threading.Lock()

    def recall(self, stored: bytes) -> GameState | None:
        """A copy of the state stored as these bytes, when this function wrote or read them lately."""
        found = self._states.get(stored)
        return None if found is None else found.copy()

    def keep(self, stored: bytes, state: GameState) -> None:
        """Remember `state` (a copy: the caller keeps using its own) as the one stored as `stored`."""
        kept = state.copy()
        with self._lock:
            self._states.pop(stored, None)
            while len(self._states) >= self.limit:
                del self._states[next(iter(self._states))]
            self._states[stored] = kept

    def forget(self) -> None:
        with self._lock:
            self._states.clear()

    def __len__(self) -> int:
        return len(self._states)
