"""What table talk needs from storage, and the ports its use cases read (Services has them all)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from app.core.clock import Clock, WallClock
from app.core.rates import Counted
from app.games.ports import Games
from app.players.ports import Players
from app.talk.records import MessageRecord, ReactionRecord

if TYPE_CHECKING:
    from app.core.settings import AppSettings


class TalkStore(Protocol):
    """A game's messages, beside its item (never in it: a move writes the game item alone)."""

    def put_message(self, message: MessageRecord, *, expires_at: int | None) -> None:
        """Store a message, and note on the author's side that they talked in its game (for the export
        and the erasure, which start from the player)."""
        ...

    def list_messages(self, game_id: str, *, before: str, limit: int) -> list[MessageRecord]:
        """The game's messages whose id sorts before `before` ('' for the newest), newest first."""
        ...

    def expire_messages(self, game_id: str, *, expires_at: int) -> None:
        """Let every message of a finished game expire at `expires_at`."""
        ...

    def messages_by(self, player_id: str) -> list[MessageRecord]:
        """Every message the player wrote, in every game (oldest first within a game)."""
        ...

    def erase_messages_by(self, player_id: str, *, name: str) -> int:
        """Remove the text of every message the player wrote, and sign it `name` instead of theirs; how
        many messages lost their text (a retry skips those that already did)."""
        ...

    def get_message(self, game_id: str, message_id: str) -> MessageRecord | None: ...

    def put_reaction(self, reaction: ReactionRecord) -> None:
        """The player's one reaction to the target: a new one replaces theirs."""
        ...

    def remove_reaction(self, game_id: str, target: str, player_id: str) -> bool:
        """Take the player's reaction to the target back; whether there was one."""
        ...

    def list_reactions(self, game_id: str) -> list[ReactionRecord]:
        """Every reaction at the game's table, by target then player."""
        ...

    def report_message(
        self, game_id: str, message_id: str, reporter_id: str, *, reason: str, at: str
    ) -> bool:
        """Keep the report beside the message and mark the message reported; False when this reporter
        had reported it already (nothing changes)."""
        ...

    def hide_message(self, game_id: str, message_id: str) -> None:
        """Mark the message hidden by the game's host."""
        ...

    def mute_player(self, player_id: str, muted_id: str, *, at: str) -> None:
        """`player_id` no longer reads `muted_id`'s messages (kept in `player_id`'s partition)."""
        ...

    def unmute_player(self, player_id: str, muted_id: str) -> bool:
        """Read them again; whether they were muted."""
        ...

    def muted_players(self, player_id: str) -> list[str]:
        """Whom the player muted, by id."""
        ...

    def muters_of(self, author_id: str, among: Sequence[str]) -> set[str]:
        """Which of `among` muted `author_id` (one batch read, for telling a table of a message)."""
        ...

    def mark_read(self, player_id: str, game_id: str, message_id: str) -> bool:
        """Note that the player read the game's talk up to `message_id` (`PLAYER#<id>` / `READ#<game>`),
        only if that moves their marker forward: one small read, and one small conditional write only when
        it moves; whether it moved."""
        ...

    def read_marks(self, player_id: str) -> dict[str, str]:
        """game id -> the last message id the player read there (one query of their partition)."""
        ...

    def authors_after(self, game_id: str, after: str, *, limit: int) -> list[str]:
        """Who wrote each of the game's messages after `after` ('' for all), at most `limit` of them."""
        ...

    def block_player(self, player_id: str, blocked_id: str, *, at: str) -> None:
        """`player_id` blocks `blocked_id`: the block and a mute of them (kept in `player_id`'s partition),
        so every read of mutes hides a blocked player's words with no read of its own."""
        ...

    def unblock_player(self, player_id: str, blocked_id: str) -> bool:
        """Take the block back, and the mute it brought; whether they were blocked."""
        ...

    def blocked_players(self, player_id: str) -> list[str]:
        """Whom the player blocked, by id."""
        ...

    def blocks_between(self, player_id: str, others: Sequence[str]) -> set[tuple[str, str]]:
        """Every block between `player_id` and one of `others`, either way, as (blocker, blocked) pairs (one
        batch read, at a join)."""
        ...


class Talk(Protocol):
    talk: TalkStore


class TalkExpiring(Talk, Clock, Protocol):
    """Setting when a finished game's talk goes: the store, the clock, and `settings` for how long."""

    settings: AppSettings


class Talking(TalkExpiring, Games, Players, Counted, WallClock, Protocol):
    """Posting and reading messages: the game (who may, in which phase), the store, the rate counter and
    the clock."""
