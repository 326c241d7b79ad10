"""What the games feature needs from storage, whatever holds the data (DynamoDB, or memory in tests), and
the few ports each of its use cases reads (the composition's Services has them all, and so fits each).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol

from app.core.clock import Clock
from app.core.deadline import RetryBudget
from app.core.records import GameRecord, GameStamp, Membership, StoredAnswer
from dixit.lean_dataclass import dataclass
from dixit.state import RoundResult

if TYPE_CHECKING:
    from app.core.settings import AppSettings
    from app.decks.card_images import CardImages
    from app.decks.ports import DeckStore
    from app.players.ports import PlayerStore


@dataclass(frozen=True, slots=True)
class GameWrite:
    """One conditional write of a game and everything that must land with it, or not at all.

    `memberships` are the first inbox entries of the players in `joined`. `finished_round` is the round
    the move scored: no item of its own is written with it; the stream consumer writes the history
    from the game item (app.games.history), which carries the reveal when its state cannot tell it all.
    The due entry must still be `expected_due_at` as read (by default the record's own): the sweep
    moves it without a new version, and a move must not put back one the sweep already handled.
    """

    record: GameRecord
    expected_version: int
    joined: Sequence[str] = ()
    left: Sequence[str] = ()
    finished_round: RoundResult | None = None
    expected_due_at: int | Literal["unchanged"] | None = "unchanged"
    answer: StoredAnswer | None = None
    memberships: Sequence[Membership] = ()

    @property
    def due_condition(self) -> int | None:
        return self.record.due_at if self.expected_due_at == "unchanged" else self.expected_due_at

    @property
    def carried_round(self) -> RoundResult | None:
        """The reveal the game item must carry for the round history (app.games.history): only when its
        state lost part of it (players left the table as the round ended)."""
        scored = self.finished_round
        return None if scored is None or self.record.state.last_round == scored else scored


class GameStore(Protocol):
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

    def save_game(self, write: GameWrite) -> None:
        """All of `write` or nothing, and only if the game is still at its expected version and due entry.

        Raises VersionConflict when the race was lost, and StoreUnavailable when the store failed (then
        the write may or may not have landed: the game's `recent_requests` tell).
        """
        ...

    def get_answer(self, key_id: str, *, now: int) -> StoredAnswer | None:
        """The unexpired answer stored under `key_id`, if any (a strongly consistent read)."""
        ...

    def put_answer(self, answer: StoredAnswer, *, now: int) -> bool:
        """Keep the answer of a keyed request that writes no game; False if its key already holds one."""
        ...

    def list_rounds(self, game_id: str) -> list[RoundResult]:
        """The game's history, oldest first: the rounds the stream consumer has written so far."""
        ...

    def put_round(self, game_id: str, result: RoundResult) -> None:
        """Write a scored round's history item (the stream consumer's), over the same one if it is there."""
        ...

    def list_open_games(self, limit: int) -> list[GameRecord]:
        """Public lobbies, newest first."""
        ...

    def due_page(
        self, shard: str, now: int, *, limit: int, start: dict[str, Any] | None = None
    ) -> tuple[list[tuple[str, int]], dict[str, Any] | None]:
        """(game id, due_at) entries of one due shard at or before `now`, and where the next page starts."""
        ...

    def set_due(self, game_id: str, *, version: int, expected: int, due_at: int | None) -> bool:
        """Move (or drop) a game's due entry unless the game or the entry changed (False then)."""
        ...


class InboxStore(Protocol):
    """Each member's entry of each game: written first with the membership, then by the stream consumer."""

    def refresh_entries(self, entries: Sequence[Membership]) -> int:
        """The stream consumer's write: each entry over an older one, never over a newer one, and never
        for a player whose membership is gone. Returns how many were written."""
        ...

    def file_finished(self, entries: Sequence[Membership]) -> None:
        """Finished games' entries into their players' histories, out of the active range; only for
        players whose membership is still there (a deleted account's seat files nothing)."""
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


class Games(Protocol):
    """Reading a game (loading it, its version, its rounds, the open lobbies)."""

    games: GameStore


class Inbox(Protocol):
    """A player's games, as their inbox entries list them."""

    inbox: InboxStore


class Seating(Games, Inbox, Protocol):
    """The quotas a create or a join is held to (app.games.quotas): the player's entries, their lobbies."""


class Described(Protocol):
    """The descriptions of a game's custom cards (app.games.card_descriptions)."""

    decks: DeckStore


class Viewing(Described, Protocol):
    """A game as a viewer sees it: its cards' images and descriptions."""

    images: CardImages


class Answering(Games, Viewing, Clock, Protocol):
    """A keyed request's answer: stored with its work, replayed to a retry (app.games.keyed)."""

    settings: AppSettings


class Moving(Answering, RetryBudget, Protocol):
    """Every write of a game: load, judge, save conditionally, retry within the budget (app.games.writing)."""


class BlockLookup(Protocol):
    def blocks_between(self, player_id: str, others: Sequence[str]) -> set[tuple[str, str]]:
        """Every block between `player_id` and one of `others`, either way, as (blocker, blocked)."""
        ...


class Blocking(Protocol):
    """Blocks between players, kept by table talk's store (app.talk.blocks), read at a join alone."""

    @property
    def talk(self) -> BlockLookup: ...


class Playing(Moving, Seating, Blocking, Protocol):
    """A player's own game: creating it, moving in it, with the quotas, and keeping a seated player."""

    players: PlayerStore
