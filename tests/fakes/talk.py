"""`TalkStore` in memory: each game's messages, the games each player talked in, and each message's expiry
(`expiry`, what the table would hold in `expires_at`; nothing here deletes)."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Sequence

from app.talk.records import MessageRecord, ReactionRecord


class MemoryTalkStore:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        # game id -> message id -> (message, expires_at)
        self._games: dict[str, dict[str, tuple[MessageRecord, int | None]]] = {}
        self._talked: dict[str, set[str]] = {}  # player id -> the games they talked in
        self._reactions: dict[str, dict[tuple[str, str], str]] = {}  # game -> (target, player) -> reaction
        self._muted: dict[str, dict[str, str]] = {}  # player -> muted player -> when
        self._blocked: dict[str, dict[str, str]] = {}  # player -> blocked player -> when
        self._read: dict[str, dict[str, str]] = {}  # player -> game -> the last message id read
        # (game, message, reporter) -> (reason, when): what the table keeps beside the message
        self.reports: dict[tuple[str, str, str], tuple[str, str]] = {}

    def put_message(self, message: MessageRecord, *, expires_at: int | None) -> None:
        with self._lock:
            self._talked.setdefault(message.author_id, set()).add(message.game_id)
            self._games.setdefault(message.game_id, {})[message.message_id] = (message, expires_at)

    def list_messages(self, game_id: str, *, before: str, limit: int) -> list[MessageRecord]:
        with self._lock:
            found = self._games.get(game_id, {})
            ids = sorted((i for i in found if not before or i < before), reverse=True)
            return [found[i][0] for i in ids[:limit]]

    def expire_messages(self, game_id: str, *, expires_at: int) -> None:
        with self._lock:
            found = self._games.get(game_id, {})
            for message_id, (message, _) in found.items():
                found[message_id] = (message, expires_at)

    def messages_by(self, player_id: str) -> list[MessageRecord]:
        with self._lock:
            return [
                message
                for game_id in sorted(self._talked.get(player_id, ()))
                for _, (message, _) in sorted(self._games.get(game_id, {}).items())
                if message.author_id == player_id
            ]

    def erase_messages_by(self, player_id: str, *, name: str) -> int:
        erased = 0
        with self._lock:
            for game_id in self._talked.get(player_id, ()):
                found = self._games.get(game_id, {})
                for message_id, (message, expires_at) in found.items():
                    if message.author_id == player_id and message.text is not None:
                        found[message_id] = (
                            dataclasses.replace(message, text=None, author_name=name),
                            expires_at,
                        )
                        erased += 1
        return erased

    def get_message(self, game_id: str, message_id: str) -> MessageRecord | None:
        with self._lock:
            found = self._games.get(game_id, {}).get(message_id)
            return None if found is None else found[0]

    def put_reaction(self, reaction: ReactionRecord) -> None:
        with self._lock:
            key = (reaction.target, reaction.player_id)
            self._reactions.setdefault(reaction.game_id, {})[key] = reaction.reaction

    def remove_reaction(self, game_id: str, target: str, player_id: str) -> bool:
        with self._lock:
            return self._reactions.get(game_id, {}).pop((target, player_id), None) is not None

    def list_reactions(self, game_id: str) -> list[ReactionRecord]:
        with self._lock:
            found = self._reactions.get(game_id, {})
            return [ReactionRecord(game_id, t, p, found[(t, p)]) for t, p in sorted(found)]

    def report_message(
        self, game_id: str, message_id: str, reporter_id: str, *, reason: str, at: str
    ) -> bool:
        with self._lock:
            new = (game_id, message_id, reporter_id) not in self.reports
            self.reports.setdefault((game_id, message_id, reporter_id), (reason, at))
            self._mark(game_id, message_id, reported=True)
            return new

    def hide_message(self, game_id: str, message_id: str) -> None:
        with self._lock:
            self._mark(game_id, message_id, hidden_by_host=True)

    def _mark(self, game_id: str, message_id: str, **flags: bool) -> None:
        message, expires_at = self._games[game_id][message_id]  # a KeyError, as the table's failed condition
        self._games[game_id][message_id] = (dataclasses.replace(message, **flags), expires_at)

    def mute_player(self, player_id: str, muted_id: str, *, at: str) -> None:
        with self._lock:
            self._muted.setdefault(player_id, {})[muted_id] = at

    def unmute_player(self, player_id: str, muted_id: str) -> bool:
        with self._lock:
            return self._muted.get(player_id, {}).pop(muted_id, None) is not None

    def muted_players(self, player_id: str) -> list[str]:
        with self._lock:
            return sorted(self._muted.get(player_id, {}))

    def muters_of(self, author_id: str, among: Sequence[str]) -> set[str]:
        with self._lock:
            return {p for p in among if author_id in self._muted.get(p, {})}

    def mark_read(self, player_id: str, game_id: str, message_id: str) -> bool:
        with self._lock:
            marks = self._read.setdefault(player_id, {})
            if marks.get(game_id, "") >= message_id:
                return False
            marks[game_id] = message_id
            return True

    def read_marks(self, player_id: str) -> dict[str, str]:
        with self._lock:
            return dict(self._read.get(player_id, {}))

    def authors_after(self, game_id: str, after: str, *, limit: int) -> list[str]:
        with self._lock:
            found = sorted(self._games.get(game_id, {}).items())
            return [m.author_id for i, (m, _) in found if i > after][:limit]

    def block_player(self, player_id: str, blocked_id: str, *, at: str) -> None:
        with self._lock:
            self._muted.setdefault(player_id, {})[blocked_id] = at
            self._blocked.setdefault(player_id, {})[blocked_id] = at

    def unblock_player(self, player_id: str, blocked_id: str) -> bool:
        with self._lock:
            self._muted.get(player_id, {}).pop(blocked_id, None)
            return self._blocked.get(player_id, {}).pop(blocked_id, None) is not None

    def blocked_players(self, player_id: str) -> list[str]:
        with self._lock:
            return sorted(self._blocked.get(player_id, {}))

    def blocks_between(self, player_id: str, others: Sequence[str]) -> set[tuple[str, str]]:
        with self._lock:
            return {
                pair
                for o in others
                if o != player_id
                for pair in ((player_id, o), (o, player_id))
                if pair[1] in self._blocked.get(pair[0], {})
            }

    def erase_player(self, player_id: str) -> int:
        """The pointers, mutes and blocks go with the player's partition (not a port method: MemoryTable
        calls it)."""
        with self._lock:
            return (
                len(self._talked.pop(player_id, set()))
                + len(self._muted.pop(player_id, {}))
                + len(self._blocked.pop(player_id, {}))
                + len(self._read.pop(player_id, {}))
            )

    def expiry(self, game_id: str) -> dict[str, int | None]:
        """message id -> expires_at of every message of the game (not a port method)."""
        with self._lock:
            return {i: expires_at for i, (_, expires_at) in self._games.get(game_id, {}).items()}
