"""The season through the use cases over the in-memory stores: no moto, no boto3, no HTTP.

The same code paths as the twin, one layer in: a player's move is `app.games.play.play` (then
`apply_move`) with the move the route would make, a view is what GET /games/{id} presents, the sweep is
`app.flows.sweep.sweep` as SweepFunction calls it, and every change of a game item goes, as the table's stream
would carry it, through GameStreamFunction's `consume` (inbox, feed and webhooks, notifications).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from pydantic import TypeAdapter, ValidationError

from app.core.errors import AppError
from app.core.records import GameRecord, PlayerRecord
from app.core.telemetry import logger, metrics
from app.flows.sweep import sweep
from app.games import play as games
from app.games.ports import GameWrite
from app.games.schemas import CreateClassicGame, CreateOdysseyGame
from app.notify import my_preferences
from app.notify.delivery import Delivery
from app.players import accounts
from dixit import moves
from dixit.errors import DixitError
from dixit.state import GameState, Phase
from handlers.game_stream import consume
from handlers.route_table import ROUTES as TABLE
from handlers.routes.game_moves import MOVE_ROUTES
from tests.fakes.games import MemoryGameStore
from tests.fakes.push import MemoryNotifier
from tests.support.services import AllMemoryPorts, memory_services

from .model import FakeClock, Heard

# Each move by the last segment of its path ("votes"), as the table declares it.
_PATHS = {route.operation_id: route.path for route in TABLE}
ROUTES = {_PATHS[route.operation_id].rsplit("/", 1)[1]: route for route in MOVE_ROUTES}
SWEEP_BUDGET_MS = 60_000  # what the sweep is told is left: a run in memory never runs short


class StreamingGameStore(MemoryGameStore):
    """The game store double (which keeps, as the table's stream would, each write's old and new game
    item in `changes`) that also keeps the due index's entries, for the season's clock to skip to."""

    def __init__(self, ports: AllMemoryPorts) -> None:
        super().__init__(ports.table)
        self.due: dict[str, int] = {}  # game id -> its entry in the due index

    def _changed(self, game_id: str) -> None:
        due = self._games[game_id].record.due_at
        if due is None:
            self.due.pop(game_id, None)
        else:
            self.due[game_id] = due

    def create_game(self, record: GameRecord, **kwargs: Any) -> None:
        super().create_game(record, **kwargs)
        self._changed(record.game_id)

    def save_game(self, write: GameWrite) -> None:
        super().save_game(write)
        self._changed(write.record.game_id)

    def set_due(self, game_id: str, *, version: int, expected: int, due_at: int | None) -> bool:
        if not super().set_due(game_id, version=version, expected=expected, due_at=due_at):
            return False
        self._changed(game_id)
        return True


class MemoryWorld:
    def __init__(self, clock: FakeClock | None = None) -> None:
        self.clock = clock if clock is not None else FakeClock()
        ports = AllMemoryPorts()
        self.store = StreamingGameStore(ports)
        ports.games = self.store
        self.notifier = MemoryNotifier()
        self.services = memory_services(ports, games=self.store, push=self.notifier, clock=self.clock)
        self.players: dict[str, PlayerRecord] = {}
        self._heard = 0
        self._finished: dict[str, GameState] = {}

    def register(self, name: str) -> str:
        player, _ = accounts.register(self.services, name)
        self.players[player.player_id] = player
        return player.player_id

    def create(self, host_id: str, body: dict[str, Any]) -> tuple[str, str]:
        schema = CreateOdysseyGame if body.get("rules") == "odyssey" else CreateClassicGame
        asked = schema.model_validate(body)
        made = games.create_game(
            self.services,
            self.players[host_id],
            rules=asked.rules,
            decks=asked.decks,
            max_players=asked.max_players,
            target_score=asked.target_score,
            visibility=asked.visibility,
            move_timeout_hours=asked.move_timeout_hours,
            timeout_policy=asked.timeout_policy.value,
            vacation_days=asked.vacation_days,
            host_quiet=my_preferences.seat_quiet_of(self.services, host_id),
        )
        assert made.record is not None
        return made.record.game_id, made.record.invite_code

    def join(self, player_id: str, game_id: str, invite_code: str) -> None:
        refused = self.move(player_id, game_id, "join", {"invite_code": invite_code})
        assert refused is None, refused

    def set_preferences(self, player_id: str, body: dict[str, Any]) -> None:
        my_preferences.change(self.services, self.players[player_id], body)

    def start(self, host_id: str, game_id: str) -> None:
        player = self.players[host_id]
        games.play(self.services, player, game_id, ROUTES["start"].make(player, None))

    def view(self, player_id: str, game_id: str) -> dict[str, Any]:
        record = games.visible_game(self.services, self.players[player_id], game_id)
        return games.view_of(record, player_id, self.services.images)

    def move(self, player_id: str, game_id: str, route: str, body: dict[str, Any]) -> str | None:
        player, chosen = self.players[player_id], ROUTES[route]
        try:
            parsed = TypeAdapter(chosen.body).validate_python(body) if chosen.body is not None else None
            move = chosen.make(player, parsed)
            if isinstance(move, moves.Join):
                # As the route does: the seat carries the player's quiet hours.
                move = replace(move, quiet=my_preferences.seat_quiet_of(self.services, player_id))
            games.play(self.services, player, game_id, move, invite_code=chosen.invite_code(parsed))
        except (AppError, DixitError) as refused:
            return refused.code
        except ValidationError:
            return "invalid_body"
        return None

    def sweep(self) -> dict[str, Any]:
        # As SweepFunction does: the services and the delivery on the scheduled time.
        at = self.clock.now
        services = self.services.at(lambda: at)
        report = sweep(
            services,
            Delivery.of(services),
            int(at.timestamp()),
            remaining_ms=lambda: SWEEP_BUDGET_MS,
            webhooks=services.webhook_queue,
        )
        return report.to_dict()

    def hear(self) -> Heard:
        # What the stream carries, in commit order, as one consumer per shard would see one game's.
        heard = Heard()
        while changes := self.store.take_changes():
            for old, new in changes:
                consume(old, new, self.services)
                before = GameState.from_json(old["state"]) if old else None
                state = GameState.from_json(new["state"])
                heard.changes.append((before, state))
                if state.phase is Phase.FINISHED:
                    self._finished.setdefault(state.game_id, state)
        # The handlers' metrics would pile up in memory: nothing flushes them here.
        metrics.clear_metrics()
        fresh = self.notifier.published[self._heard :]
        self._heard = len(self.notifier.published)
        heard.published = [(n.kind.value, n.player_id, n.game_id) for n in fresh]
        return heard

    def earliest_due(self) -> int | None:
        return min(self.store.due.values(), default=None)

    def finished(self) -> dict[str, GameState]:
        return dict(self._finished)


@contextmanager
def quiet_logs() -> Iterator[None]:
    """The use cases log every move at INFO: tens of thousands of JSON lines nobody reads here."""
    level = logger.log_level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)
