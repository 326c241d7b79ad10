"""What the use cases need from storage, whatever holds the data (DynamoDB, or memory in tests)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol

from app.core.records import (
    FeedItem,
    GameRecord,
    GameStamp,
    Membership,
    PlayerRecord,
    StoredAnswer,
    Visibility,
)
from app.webhooks.records import DeliveryAttempt, WebhookRecord
from dixit.state import Phase, RoundResult

LOBBY = "LOBBY"
# Finished games' memberships sort under this prefix, newest first; active ones stay under "GAME#", so
# the inbox's query reads only active games however long a player's history.
FINISHED_PREFIX = "DONE#"


def finished_key(entry: Membership) -> str:
    """Where a finished game sits in its player's history: by finish time, then game id."""
    return f"{entry.updated_at}#{entry.game_id}"


def lobby_key(record: GameRecord) -> str | None:
    """The lobby listing's sort key for an open public lobby (newest first), else None."""
    state = record.state
    if state.phase is Phase.LOBBY and record.visibility is Visibility.PUBLIC:
        return f"{record.created_at}#{record.game_id}"
    return None


def due_entry(record: GameRecord) -> int | None:
    """The game's due index entry (app.games.due_index): finished games have none."""
    return None if record.state.phase is Phase.FINISHED else record.due_at


class Store(Protocol):
    def create_player(self, player: PlayerRecord) -> None: ...

    def get_player(self, player_id: str) -> PlayerRecord | None: ...

    def replace_token(self, player_id: str, *, old_hash: str, new_hash: str, issued_at: str) -> bool:
        """Swap the player's token hash if it is still `old_hash` (False when another request won)."""
        ...

    def load_game(self, game_id: str) -> GameRecord | None:
        """The latest state (a strongly consistent read): moves are judged against it."""
        ...

    def create_game(
        self,
        record: GameRecord,
        *,
        answer: StoredAnswer | None = None,
        memberships: Sequence[Membership] = (),
    ) -> None:
        """The new game and its host's membership (with its inbox entry, when given, and `answer`, for a
        keyed request), together.

        Raises VersionConflict when the game id or the answer's key is already taken.
        """
        ...

    def game_stamp(self, game_id: str) -> GameStamp | None:
        """Version, visibility and members of a game, without reading its state (cheap 304s)."""
        ...

    def save_game(
        self,
        record: GameRecord,
        *,
        expected_version: int,
        joined: Sequence[str] = (),
        left: Sequence[str] = (),
        finished_round: RoundResult | None = None,
        expected_due_at: int | Literal["unchanged"] | None = "unchanged",
        answer: StoredAnswer | None = None,
        memberships: Sequence[Membership] = (),
    ) -> None:
        """Write the game only if it is still at `expected_version`, with its memberships and reveal.

        The due entry must still be `expected_due_at` as well (by default the record's own): the sweep
        moves it without a new version. `memberships` are the first inbox entries of the players in
        `joined`, written with their memberships. All or nothing, `answer` included (its key must be
        free); raises VersionConflict when the race was lost, and StoreUnavailable
        when the store failed (then the write may or may not have landed: the game's `recent_requests`
        tell).
        """
        ...

    def get_answer(self, key_id: str, *, now: int) -> StoredAnswer | None:
        """The unexpired answer stored under `key_id`, if any (a strongly consistent read)."""
        ...

    def put_answer(self, answer: StoredAnswer, *, now: int) -> bool:
        """Keep the answer of a keyed request that writes no game; False if its key already holds one."""
        ...

    def list_rounds(self, game_id: str) -> list[RoundResult]: ...

    def list_open_games(self, limit: int) -> list[GameRecord]:
        """Public lobbies, newest first."""
        ...

    def refresh_entries(self, entries: Sequence[Membership]) -> int:
        """The stream consumer's write: each entry over an older one, never over a newer one, and never
        for a player whose membership is gone. Returns how many were written."""
        ...

    def file_finished(self, entries: Sequence[Membership]) -> None:
        """Finished games' entries into their players' histories, out of the active range."""
        ...

    def games_of(self, player_id: str) -> list[GameRecord]:
        """The games a player is in and that are not finished (reads every game item: tests only)."""
        ...

    def active_memberships(self, player_id: str) -> list[Membership]:
        """The inbox entries of a player's unfinished games: one query, whatever their history."""
        ...

    def finished_memberships(
        self, player_id: str, limit: int, after: str | None
    ) -> tuple[list[Membership], str | None]:
        """One page of finished games, newest first, from after the `finished_key` `after`.

        Returns the page and the key to continue from (None when there is no more).
        """
        ...

    def due_page(
        self, shard: str, now: int, *, limit: int, start: dict[str, Any] | None = None
    ) -> tuple[list[tuple[str, int]], dict[str, Any] | None]:
        """(game id, due_at) entries of one due shard at or before `now`, and where the next page starts."""
        ...

    def set_due(self, game_id: str, *, version: int, expected: int, due_at: int | None) -> bool:
        """Move (or drop) a game's due entry unless the game or the entry changed (False then)."""
        ...

    # Webhooks: a player's subscriptions, their health and recent attempts.

    def create_webhook(self, record: WebhookRecord, *, max_per_player: int) -> bool:
        """Add a webhook unless the player already has `max_per_player` (False then)."""
        ...

    def list_webhooks(self, player_id: str) -> list[WebhookRecord]: ...

    def get_webhook(self, player_id: str, webhook_id: str) -> WebhookRecord | None: ...

    def delete_webhook(self, player_id: str, webhook_id: str) -> bool:
        """Remove a webhook and free its slot; False when there was no such webhook."""
        ...

    def set_webhook_secret(self, player_id: str, webhook_id: str, secret: str) -> bool: ...

    def record_webhook_result(
        self, player_id: str, webhook_id: str, *, ok: bool, status: str, at: str, disable_after: int
    ) -> WebhookRecord | None:
        """Note a delivery's result; disable after `disable_after` failures in a row (None if deleted)."""
        ...

    def put_delivery_attempt(self, attempt: DeliveryAttempt, *, expires_at: int) -> None: ...

    def list_delivery_attempts(self, webhook_id: str, limit: int) -> list[DeliveryAttempt]:
        """Newest first."""
        ...

    # The event feed: each member's copy of a game's events, in order.

    def put_feed_items(self, items: Sequence[FeedItem], *, expires_at: int | None) -> None:
        """Write feed items; writing one again (a retried stream batch) replaces it with the same."""
        ...

    def expire_feed(self, game_id: str, *, expires_at: int) -> None:
        """Let every feed item of a finished game expire at `expires_at`."""
        ...

    def list_feed(self, game_id: str, player_id: str, *, after: str, limit: int) -> list[FeedItem]:
        """The player's feed items of the game whose position is after `after`, oldest first."""
        ...
