"""`GameStore` and `InboxStore` in memory: the same contract as their DynamoDB adapters.

They keep what DynamoDB keeps (the state as JSON, the listing keys, a reveal the item carries) and
honour the same conditions: a write on a stale version or an existing id fails as a whole with
VersionConflict. The memberships a game write makes are the table's, shared with the inbox through a
`MemoryTable`. As the table's stream would, the game store keeps each game write's old and new item
(`changes`: what the stream consumer reads of them) for tests to hand to the consumer
(tests/support/stream.py): the round history is the consumer's to write, as in DynamoDB.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from app.core.errors import VersionConflict
from app.core.records import GameRecord, GameStamp, Membership, StoredAnswer
from app.games import state_codec
from app.games.keys import due_entry, due_shard, finished_key, lobby_key
from app.games.ports import GameWrite
from dixit.state import GameState, Phase, RoundResult

from .table import MemoryTable


@dataclass(frozen=True, slots=True)
class _StoredGame:
    state_json: str
    version: int
    record: GameRecord  # the envelope; its state is rebuilt from state_json on every read
    scored_round: str | None = None  # the reveal the item carries (GameWrite.carried_round)

    def load(self) -> GameRecord:
        return replace(self.record, state=GameState.from_json(self.state_json))


class MemoryGameStore:
    def __init__(self, table: MemoryTable | None = None) -> None:
        self.table = table if table is not None else MemoryTable()
        self._lock = self.table.lock
        self._games: dict[str, _StoredGame] = {}
        self._rounds: dict[str, dict[int, str]] = {}
        self._answers: dict[str, StoredAnswer] = {}
        # (old image, new image) of each game write, in commit order, as the stream would carry them.
        self.changes: list[tuple[dict[str, Any], dict[str, Any]]] = []

    def load_game(self, game_id: str) -> GameRecord | None:
        stored = self._games.get(game_id)
        return None if stored is None else stored.load()

    def create_game(
        self,
        record: GameRecord,
        *,
        answer: StoredAnswer | None = None,
        memberships: Sequence[Membership] = (),
    ) -> None:
        with self._lock:
            if record.game_id in self._games:
                raise VersionConflict(self._games[record.game_id].version)
            self._check_key_free(answer, record)
            self._put(record)
            self._keep(answer)
            self.table.members.setdefault(record.state.host_id, set()).add(record.game_id)
            self._write_entries(record.game_id, memberships)
            self.changes.append(({}, self._image(record.game_id)))

    def game_stamp(self, game_id: str) -> GameStamp | None:
        stored = self._games.get(game_id)
        if stored is None:
            return None
        members = frozenset(p.player_id for p in stored.load().state.players)
        return GameStamp(stored.version, stored.record.visibility, members)

    def save_game(self, write: GameWrite) -> None:
        record, expected_version, expected_due = write.record, write.expected_version, write.due_condition
        answer = write.answer
        with self._lock:
            stored = self._games.get(record.game_id)
            if stored is None or stored.version != expected_version:
                raise VersionConflict(None if stored is None else stored.version)
            if stored.record.due_at != expected_due:
                raise VersionConflict(stored.version)
            self._check_key_free(answer, record)
            old = self._image(record.game_id)
            self._put(record, write.carried_round)
            self._keep(answer)
            for player_id in write.joined:
                self.table.members.setdefault(player_id, set()).add(record.game_id)
            for player_id in write.left:
                self.table.members.get(player_id, set()).discard(record.game_id)
                self.table.entries.get(player_id, {}).pop(record.game_id, None)
            self._write_entries(record.game_id, write.memberships)
            self.changes.append((old, self._image(record.game_id)))

    def get_answer(self, key_id: str, *, now: int) -> StoredAnswer | None:
        answer = self._answers.get(key_id)
        return answer if answer is not None and answer.expires_at > now else None

    def put_answer(self, answer: StoredAnswer, *, now: int) -> bool:
        with self._lock:
            if self.get_answer(answer.key_id, now=now) is not None:
                return False
            self._answers[answer.key_id] = answer
            return True

    def list_rounds(self, game_id: str) -> list[RoundResult]:
        rounds = self._rounds.get(game_id, {})
        return [RoundResult.from_dict(json.loads(rounds[number])) for number in sorted(rounds)]

    def put_round(self, game_id: str, result: RoundResult) -> None:
        with self._lock:
            self._rounds.setdefault(game_id, {})[result.number] = state_codec.round_json(result)

    def list_open_games(self, limit: int) -> list[GameRecord]:
        games = list(self._games.values())
        lobbies = [(key, stored) for stored in games if (key := lobby_key(stored.record))]
        return [stored.load() for _, stored in sorted(lobbies, key=lambda e: e[0], reverse=True)[:limit]]

    def due_page(
        self, shard: str, now: int, *, limit: int, start: dict[str, Any] | None = None
    ) -> tuple[list[tuple[str, int]], dict[str, Any] | None]:
        entries = sorted(
            (due, game_id)
            for game_id, stored in list(self._games.items())
            if (due := due_entry(stored.record)) is not None and due <= now and due_shard(game_id) == shard
        )
        if start is not None:
            entries = [e for e in entries if e > (start["due_at"], start["game_id"])]
        page = entries[:limit]
        more = len(entries) > limit
        last = {"due_at": page[-1][0], "game_id": page[-1][1]} if more else None
        return [(game_id, due) for due, game_id in page], last

    def set_due(self, game_id: str, *, version: int, expected: int, due_at: int | None) -> bool:
        with self._lock:
            stored = self._games.get(game_id)
            if stored is None or stored.version != version or stored.record.due_at != expected:
                return False
            old = self._image(game_id)
            # An update: the rest of the item, a carried reveal included, stays as it was.
            self._games[game_id] = replace(stored, record=replace(stored.record, due_at=due_at))
            self.changes.append((old, self._image(game_id)))
            return True

    def take_changes(self) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """The game writes' (old, new) items since the last call, oldest first (not a port method: the
        stream's, for tests/support/stream.py)."""
        with self._lock:
            taken = list(self.changes)
            self.changes.clear()
            return taken

    def games_of(self, player_id: str) -> list[GameRecord]:
        """The unfinished games the player's memberships name (not a port method: for tests' asserts)."""
        records = [self._games[g].load() for g in sorted(self.table.members.get(player_id, ()))]
        return [r for r in records if r.state.phase is not Phase.FINISHED]

    def _write_entries(self, game_id: str, memberships: Sequence[Membership]) -> None:
        for entry in memberships:
            self.table.entries.setdefault(entry.player_id, {})[game_id] = entry

    def _check_key_free(self, answer: StoredAnswer | None, record: GameRecord) -> None:
        if answer is not None and self.get_answer(answer.key_id, now=_epoch(record.updated_at)) is not None:
            raise VersionConflict(None)

    def _keep(self, answer: StoredAnswer | None) -> None:
        if answer is not None:
            self._answers[answer.key_id] = answer

    def _put(self, record: GameRecord, scored: RoundResult | None = None) -> None:
        envelope = replace(record, due_at=due_entry(record))
        reveal = None if scored is None else state_codec.round_json(scored)
        self._games[record.game_id] = _StoredGame(record.state.to_json(), record.version, envelope, reveal)

    def _image(self, game_id: str) -> dict[str, Any]:
        """The game item as a stream image carries it, deserialized: what the consumer reads of it."""
        stored = self._games.get(game_id)
        if stored is None:
            return {}
        record = stored.record
        image: dict[str, Any] = {
            "state": stored.state_json,
            "updated_at": record.updated_at,
            "invite_code": record.invite_code,
        }
        if record.rematch_of is not None:
            image["rematch_of"] = record.rematch_of
        if stored.scored_round is not None:
            image[state_codec.SCORED_ROUND] = stored.scored_round
        return image


class MemoryInboxStore:
    """Reads and refreshes the membership items `MemoryGameStore` writes on the same `MemoryTable`."""

    def __init__(self, table: MemoryTable | None = None) -> None:
        self.table = table if table is not None else MemoryTable()

    def refresh_entries(self, entries: Sequence[Membership]) -> int:
        written = 0
        with self.table.lock:
            for entry in entries:
                if entry.game_id not in self.table.members.get(entry.player_id, set()):
                    continue  # left, or filed as finished: like the table's attribute_exists(pk)
                mine = self.table.entries.setdefault(entry.player_id, {})
                stored = mine.get(entry.game_id)
                if stored is None or stored.version < entry.version:
                    mine[entry.game_id] = entry
                    written += 1
        return written

    def file_finished(self, entries: Sequence[Membership]) -> None:
        with self.table.lock:
            for entry in entries:
                if entry.game_id not in self.table.members.get(entry.player_id, set()):
                    continue  # no membership (a deleted account): nothing to file
                self.table.members.get(entry.player_id, set()).discard(entry.game_id)
                self.table.entries.get(entry.player_id, {}).pop(entry.game_id, None)
                self.table.history.setdefault(entry.player_id, {})[finished_key(entry)] = entry

    def active_memberships(self, player_id: str) -> list[Membership]:
        return list(self.table.entries.get(player_id, {}).values())

    def finished_memberships(
        self, player_id: str, limit: int, after: str | None
    ) -> tuple[list[Membership], str | None]:
        filed = self.table.history.get(player_id, {})
        keys = sorted((k for k in filed if after is None or k < after), reverse=True)
        page = [filed[k] for k in keys[:limit]]
        return page, (finished_key(page[-1]) if len(keys) > limit else None)


def _epoch(iso: str) -> int:
    return int(datetime.fromisoformat(iso).timestamp())
