"""A Store held in memory: the same contract as the DynamoDB adapter, for tests and benchmarks.

It keeps what DynamoDB keeps (the state as JSON, the listing keys) and honours the same conditions:
a write on a stale version, an existing round or an existing id fails as a whole with VersionConflict.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from app.core.errors import VersionConflict
from app.core.records import FeedItem, GameRecord, GameStamp, Membership, PlayerRecord, StoredAnswer
from app.games.due_index import shard_of
from app.games.keys import due_entry, finished_key, lobby_key
from app.games.ports import GameWrite
from app.webhooks.records import DeliveryAttempt, WebhookRecord
from dixit.state import GameState, Phase, RoundResult


@dataclass(frozen=True, slots=True)
class _StoredGame:
    state_json: str
    version: int
    record: GameRecord  # the envelope; its state is rebuilt from state_json on every read

    def load(self) -> GameRecord:
        return replace(self.record, state=GameState.from_json(self.state_json))


class MemoryGameStore:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._players: dict[str, PlayerRecord] = {}
        self._games: dict[str, _StoredGame] = {}
        self._members: dict[str, set[str]] = {}  # player id -> game ids
        # player id -> game id -> inbox entry; finished ones move to _history under their finished_key
        self._entries: dict[str, dict[str, Membership]] = {}
        self._history: dict[str, dict[str, Membership]] = {}
        self._rounds: dict[str, dict[int, RoundResult]] = {}
        self._answers: dict[str, StoredAnswer] = {}
        self._webhooks: dict[tuple[str, str], WebhookRecord] = {}  # (player id, webhook id)
        self._attempts: dict[str, list[DeliveryAttempt]] = {}
        self._feed: dict[tuple[str, str], dict[str, FeedItem]] = {}  # (game id, player id) -> by position

    # Players

    def create_player(self, player: PlayerRecord) -> None:
        with self._lock:
            if player.player_id in self._players:
                raise VersionConflict(None)
            self._players[player.player_id] = player

    def get_player(self, player_id: str) -> PlayerRecord | None:
        return self._players.get(player_id)

    def rename_player(self, player_id: str, name: str) -> bool:
        with self._lock:
            player = self._players.get(player_id)
            if player is None:
                return False
            self._players[player_id] = replace(player, name=name)
            return True

    def replace_token(self, player_id: str, *, old_hash: str, new_hash: str, issued_at: str) -> bool:
        with self._lock:
            player = self._players.get(player_id)
            if player is None or player.token_hash != old_hash:
                return False
            self._players[player_id] = replace(player, token_hash=new_hash, token_issued_at=issued_at)
            return True

    # Games

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
            self._members.setdefault(record.state.host_id, set()).add(record.game_id)
            self._write_entries(record.game_id, memberships)

    def game_stamp(self, game_id: str) -> GameStamp | None:
        stored = self._games.get(game_id)
        if stored is None:
            return None
        members = frozenset(p.player_id for p in stored.load().state.players)
        return GameStamp(stored.version, stored.record.visibility, members)

    def active_memberships(self, player_id: str) -> list[Membership]:
        return list(self._entries.get(player_id, {}).values())

    def finished_memberships(
        self, player_id: str, limit: int, after: str | None
    ) -> tuple[list[Membership], str | None]:
        history = self._history.get(player_id, {})
        keys = sorted((k for k in history if after is None or k < after), reverse=True)
        page = [history[k] for k in keys[:limit]]
        return page, (finished_key(page[-1]) if len(keys) > limit else None)

    def _write_entries(self, game_id: str, memberships: Sequence[Membership]) -> None:
        for entry in memberships:
            self._entries.setdefault(entry.player_id, {})[game_id] = entry

    def refresh_entries(self, entries: Sequence[Membership]) -> int:
        written = 0
        with self._lock:
            for entry in entries:
                if entry.game_id not in self._members.get(entry.player_id, set()):
                    continue  # left, or filed as finished: like the table's attribute_exists(pk)
                mine = self._entries.setdefault(entry.player_id, {})
                stored = mine.get(entry.game_id)
                if stored is None or stored.version < entry.version:
                    mine[entry.game_id] = entry
                    written += 1
        return written

    def file_finished(self, entries: Sequence[Membership]) -> None:
        with self._lock:
            for entry in entries:
                self._members.get(entry.player_id, set()).discard(entry.game_id)
                self._entries.get(entry.player_id, {}).pop(entry.game_id, None)
                self._history.setdefault(entry.player_id, {})[finished_key(entry)] = entry

    def save_game(self, write: GameWrite) -> None:
        record, expected_version, expected_due = write.record, write.expected_version, write.due_condition
        finished_round, answer = write.finished_round, write.answer
        with self._lock:
            stored = self._games.get(record.game_id)
            if stored is None or stored.version != expected_version:
                raise VersionConflict(None if stored is None else stored.version)
            if stored.record.due_at != expected_due:
                raise VersionConflict(stored.version)
            rounds = self._rounds.setdefault(record.game_id, {})
            if finished_round is not None and finished_round.number in rounds:
                raise VersionConflict(None)  # the reveal is written once, like the table's condition
            self._check_key_free(answer, record)
            self._put(record)
            self._keep(answer)
            for player_id in write.joined:
                self._members.setdefault(player_id, set()).add(record.game_id)
            for player_id in write.left:
                self._members.get(player_id, set()).discard(record.game_id)
                self._entries.get(player_id, {}).pop(record.game_id, None)
            self._write_entries(record.game_id, write.memberships)
            if finished_round is not None:
                rounds[finished_round.number] = finished_round

    def get_answer(self, key_id: str, *, now: int) -> StoredAnswer | None:
        answer = self._answers.get(key_id)
        return answer if answer is not None and answer.expires_at > now else None

    def put_answer(self, answer: StoredAnswer, *, now: int) -> bool:
        with self._lock:
            if self.get_answer(answer.key_id, now=now) is not None:
                return False
            self._answers[answer.key_id] = answer
            return True

    def _check_key_free(self, answer: StoredAnswer | None, record: GameRecord) -> None:
        if answer is not None and self.get_answer(answer.key_id, now=_epoch(record.updated_at)) is not None:
            raise VersionConflict(None)

    def _keep(self, answer: StoredAnswer | None) -> None:
        if answer is not None:
            self._answers[answer.key_id] = answer

    def list_rounds(self, game_id: str) -> list[RoundResult]:
        rounds = self._rounds.get(game_id, {})
        return [rounds[number] for number in sorted(rounds)]

    def list_open_games(self, limit: int) -> list[GameRecord]:
        games = list(self._games.values())
        lobbies = [(key, stored) for stored in games if (key := lobby_key(stored.record))]
        return [stored.load() for _, stored in sorted(lobbies, key=lambda e: e[0], reverse=True)[:limit]]

    def games_of(self, player_id: str) -> list[GameRecord]:
        records = [self._games[g].load() for g in sorted(self._members.get(player_id, ()))]
        return [r for r in records if r.state.phase is not Phase.FINISHED]

    def due_page(
        self, shard: str, now: int, *, limit: int, start: dict[str, Any] | None = None
    ) -> tuple[list[tuple[str, int]], dict[str, Any] | None]:
        entries = sorted(
            (due, game_id)
            for game_id, stored in list(self._games.items())
            if (due := due_entry(stored.record)) is not None and due <= now and shard_of(game_id) == shard
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
            self._games[game_id] = replace(stored, record=replace(stored.record, due_at=due_at))
            return True

    # Webhooks

    def create_webhook(self, record: WebhookRecord, *, max_per_player: int) -> bool:
        with self._lock:
            if record.player_id not in self._players:
                return False
            if sum(1 for owner, _ in self._webhooks if owner == record.player_id) >= max_per_player:
                return False
            self._webhooks[(record.player_id, record.webhook_id)] = record
            return True

    def list_webhooks(self, player_id: str) -> list[WebhookRecord]:
        return [w for (owner, _), w in sorted(self._webhooks.items()) if owner == player_id]

    def get_webhook(self, player_id: str, webhook_id: str) -> WebhookRecord | None:
        return self._webhooks.get((player_id, webhook_id))

    def delete_webhook(self, player_id: str, webhook_id: str) -> bool:
        with self._lock:
            return self._webhooks.pop((player_id, webhook_id), None) is not None

    def set_webhook_secret(self, player_id: str, webhook_id: str, secret: str) -> bool:
        with self._lock:
            found = self._webhooks.get((player_id, webhook_id))
            if found is None:
                return False
            self._webhooks[(player_id, webhook_id)] = replace(found, secret=secret)
            return True

    def record_webhook_result(
        self, player_id: str, webhook_id: str, *, ok: bool, status: str, at: str, disable_after: int
    ) -> WebhookRecord | None:
        with self._lock:
            found = self._webhooks.get((player_id, webhook_id))
            if found is None:
                return None
            failures = 0 if ok else found.consecutive_failures + 1
            updated = replace(found, consecutive_failures=failures, last_delivery_at=at, last_status=status)
            if not ok and not found.disabled and failures >= disable_after:
                updated = replace(updated, disabled=True, disabled_at=at)
            self._webhooks[(player_id, webhook_id)] = updated
            return updated

    def put_delivery_attempt(self, attempt: DeliveryAttempt, *, expires_at: int) -> None:
        with self._lock:
            self._attempts.setdefault(attempt.webhook_id, []).append(attempt)

    def list_delivery_attempts(self, webhook_id: str, limit: int) -> list[DeliveryAttempt]:
        attempts = self._attempts.get(webhook_id, [])
        newest = sorted(attempts, key=lambda a: (a.attempted_at, a.delivery_id, a.attempt), reverse=True)
        return newest[:limit]

    # The event feed (expiry is DynamoDB's TTL: nothing to do in memory)

    def put_feed_items(self, items: Sequence[FeedItem], *, expires_at: int | None) -> None:
        with self._lock:
            for item in items:
                self._feed.setdefault((item.game_id, item.player_id), {})[item.position] = item

    def expire_feed(self, game_id: str, *, expires_at: int) -> None:
        return None

    def list_feed(self, game_id: str, player_id: str, *, after: str, limit: int) -> list[FeedItem]:
        feed = self._feed.get((game_id, player_id), {})
        return [feed[p] for p in sorted(feed) if p > after][:limit]

    def _put(self, record: GameRecord) -> None:
        envelope = replace(record, due_at=due_entry(record))
        self._games[record.game_id] = _StoredGame(record.state.to_json(), record.version, envelope)


def _epoch(iso: str) -> int:
    return int(datetime.fromisoformat(iso).timestamp())
