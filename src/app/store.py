"""What the use cases need from storage, whatever holds the data (DynamoDB, or memory in tests)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from app.records import GameRecord, PlayerRecord, StoredAnswer, Visibility
from dixit.state import Phase, RoundResult

LOBBY = "LOBBY"
DUE = "DUE"


def listing(record: GameRecord) -> tuple[str, str] | None:
    """The one listing a game appears in, with its sort key, or None.

    Open public lobbies are listed for strangers; unfinished games waiting on someone for the sweep.
    """
    state = record.state
    if state.phase is Phase.LOBBY and record.visibility is Visibility.PUBLIC:
        return LOBBY, f"{record.created_at}#{record.game_id}"
    if record.due_at is not None and state.phase is not Phase.FINISHED:
        return DUE, f"{record.due_at}#{record.game_id}"
    return None


class Store(Protocol):
    def create_player(self, player: PlayerRecord) -> None: ...

    def get_player(self, player_id: str) -> PlayerRecord | None: ...

    def load_game(self, game_id: str) -> GameRecord | None:
        """The latest state (a strongly consistent read): moves are judged against it."""
        ...

    def create_game(self, record: GameRecord, *, answer: StoredAnswer | None = None) -> None:
        """The new game and its host's membership (and `answer`, for a keyed request), together.

        Raises VersionConflict when the game id or the answer's key is already taken.
        """
        ...

    def save_game(
        self,
        record: GameRecord,
        *,
        expected_version: int,
        joined: Sequence[str] = (),
        left: Sequence[str] = (),
        finished_round: RoundResult | None = None,
        answer: StoredAnswer | None = None,
    ) -> None:
        """Write the game only if it is still at `expected_version`, with its memberships and reveal.

        All or nothing, `answer` included (its key must be free); raises app.errors.VersionConflict when
        the race was lost, and app.errors.StoreUnavailable when the store failed (then the write may or
        may not have landed: the game's `recent_requests` tell).
        """
        ...

    def get_answer(self, key_id: str, *, now: int) -> StoredAnswer | None:
        """The unexpired answer stored under `key_id`, if any (a strongly consistent read)."""
        ...

    def list_rounds(self, game_id: str) -> list[RoundResult]: ...

    def list_open_games(self, limit: int) -> list[GameRecord]:
        """Public lobbies, newest first."""
        ...

    def games_of(self, player_id: str) -> list[GameRecord]: ...

    def due_games(self, now_iso: str, limit: int) -> list[GameRecord]:
        """Unfinished games whose nudge deadline is at or before `now_iso`."""
        ...

    def postpone_nudge(self, game_id: str, *, version: int, due_at: str) -> bool:
        """Move a game's nudge deadline unless the game moved on (False then)."""
        ...
