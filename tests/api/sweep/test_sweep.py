"""The sweep on moto: handlers.sweep.lambda_handler with scheduled events, games played through the API.

A fake clock drives the API (the moment each move starts owing the next), and each scheduled event
names the sweep's "now", as EventBridge does.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest

from app import bootstrap
from app.aws import clients as aws_clients
from app.aws.dynamodb.games import DynamoGameStore as GameStore
from app.core import clock as wall_clock
from app.core.records import GameRecord
from app.core.settings import get_settings
from app.core.telemetry import metrics
from app.flows.sweep import sweep
from app.games.keys import due_shard, due_shards
from app.notify.delivery import Delivery

from ..client import Client, FakeContext
from ..helpers import by_id, give_clue, lobby, started, storyteller, view
from ..sns_inbox import Published, make_topic, received, subscribe_queue

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)


class FakeClock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


class CountdownContext(FakeContext):
    """A Lambda context whose remaining time drops by `step_ms` every time it is asked."""

    def __init__(self, start_ms: int, step_ms: int) -> None:
        self.left = start_ms
        self.step = step_ms

    def get_remaining_time_in_millis(self) -> int:
        self.left -= self.step
        return self.left


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock(T0)
    monkeypatch.setattr(wall_clock, "utc_now", fake)
    return fake


@pytest.fixture
def inbox(aws: None, monkeypatch: pytest.MonkeyPatch, clock: FakeClock) -> str:
    return subscribe_queue(make_topic(monkeypatch), "sweep")


@pytest.fixture(autouse=True)
def _no_metric_buildup() -> Iterator[None]:
    yield
    metrics.clear_metrics()


def scheduled_event(at: datetime) -> dict[str, Any]:
    return {
        "version": "0",
        "id": "5b4f0a3e-0000-4000-8000-000000000000",
        "detail-type": "Scheduled Event",
        "source": "aws.events",
        "account": "123456789012",
        "time": at.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "region": "us-east-1",
        "resources": ["arn:aws:events:us-east-1:123456789012:rule/NudgeSweep"],
        "detail": {},
    }


def sweep_at(at: datetime, context: FakeContext | None = None) -> dict[str, Any]:
    from handlers.sweep import lambda_handler

    result: dict[str, Any] = lambda_handler(scheduled_event(at), context or FakeContext())
    return result


def stored(game_id: str) -> GameRecord:
    record = GameStore(get_settings().table_name).load_game(game_id)
    assert record is not None
    return record


def kinds(messages: list[Published]) -> list[tuple[str, str]]:
    return sorted((m.attributes["kind"], m.attributes["player_id"]) for m in messages)


def test_nothing_is_due_before_half_the_time_is_gone(players: list[Client], inbox: str) -> None:
    started(players[:3])
    report = sweep_at(T0 + 23 * HOUR)
    assert report["games_due"] == 0
    assert received(inbox) == []


def test_a_silent_storyteller_is_reminded_at_half_time_and_at_last_call_each_once(
    players: list[Client], inbox: str
) -> None:
    game_id = started(players[:3])
    teller = storyteller(players[:3], game_id).player_id

    assert sweep_at(T0 + 24 * HOUR)["reminders_sent"] == 1
    assert sweep_at(T0 + 25 * HOUR)["games_due"] == 0  # the half-time reminder is not sent twice
    assert sweep_at(T0 + 44 * HOUR)["reminders_sent"] == 1  # a tenth of 48 h is left
    assert sweep_at(T0 + 45 * HOUR)["games_due"] == 0

    messages = received(inbox)
    assert kinds(messages) == [("reminder", teller), ("reminder", teller)]
    # One dedupe id per (game, player, deadline, point): the two reminders are told apart.
    deadline = "2026-12-03T09:00:00Z"
    assert sorted(m.body["dedupe_id"] for m in messages) == [
        f"{game_id}:{teller}:{deadline}/last_call:reminder",
        f"{game_id}:{teller}:{deadline}/reminder:reminder",
    ]


def test_a_late_sweep_skips_stale_reminders_and_applies_the_timeout(
    players: list[Client], inbox: str
) -> None:
    game_id = started(players[:3])
    teller = storyteller(players[:3], game_id).player_id

    report = sweep_at(T0 + 50 * HOUR)

    assert (report["timeouts_applied"], report["players_timed_out"], report["reminders_sent"]) == (1, 1, 0)
    state = stored(game_id).state
    assert state.round is not None
    assert state.round.storyteller_id != teller  # the role passed to the next seat
    assert kinds(received(inbox)) == [("timeout", teller)]
    # The next storyteller's clock starts at the sweep: due again at half of their time.
    assert stored(game_id).due_at == int((T0 + 50 * HOUR + 24 * HOUR).timestamp())


def test_silent_submitters_sit_the_round_out_and_are_told(players: list[Client], inbox: str) -> None:
    four = players[:4]
    game_id = started(four, timeout_policy="skip")
    teller = give_clue(four, game_id)
    clients = by_id(four)
    answering = next(c for c in four if c is not teller)
    card = view(answering, game_id)["you"]["hand"][0]["card_id"]
    assert answering.post(f"/games/{game_id}/submissions", {"card_ids": [card]}).status == 200

    report = sweep_at(T0 + 48 * HOUR)

    assert report["players_timed_out"] == 2
    silent = sorted(pid for pid in clients if pid not in (teller.player_id, answering.player_id))
    assert kinds(received(inbox)) == [("timeout", pid) for pid in silent]
    # One card beside the storyteller's is too thin a table: the round is void and the role passes.
    assert view(teller, game_id)["round"]["storyteller_id"] != teller.player_id


def test_a_move_keeps_the_due_entry_and_only_changing_who_owes_what_moves_it(
    players: list[Client], inbox: str, clock: FakeClock
) -> None:
    game_id = started(players[:3])
    first_due = stored(game_id).due_at
    assert first_due == int((T0 + 24 * HOUR).timestamp())

    clock.now = T0 + 2 * HOUR
    give_clue(players[:3], game_id)
    assert stored(game_id).due_at == first_due  # no index write on a move

    # At the stale entry the sweep finds nothing reached and stores the new schedule's first point.
    report = sweep_at(T0 + 24 * HOUR)
    assert (report["games_due"], report["entries_moved"], report["reminders_sent"]) == (1, 1, 0)
    assert stored(game_id).due_at == int((T0 + 26 * HOUR).timestamp())
    assert sweep_at(T0 + 26 * HOUR)["reminders_sent"] == 2  # both submitters
    assert received(inbox) != []


def test_a_move_landing_between_the_sweeps_read_and_write_wins(
    players: list[Client], inbox: str, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    three = players[:3]
    game_id = started(three)
    teller = storyteller(three, game_id)
    card = view(teller, game_id)["you"]["hand"][0]["card_id"]
    real_load = GameStore.load_game
    raced: list[bool] = []
    clock.now = T0 + 48 * HOUR - timedelta(seconds=1)  # the clue comes in at the last second

    def load_then_race(self: GameStore, wanted: str) -> GameRecord | None:
        record = real_load(self, wanted)
        if not raced:
            raced.append(True)  # the player's move lands right after the sweep read the game
            reply = teller.post(f"/games/{game_id}/clue", {"card_id": card, "clue": "just in time"})
            assert reply.status == 200, reply.raw
        return record

    monkeypatch.setattr(GameStore, "load_game", load_then_race)
    report = sweep_at(T0 + 48 * HOUR)

    assert report["lost_races"] == 1
    assert report["timeouts_applied"] == 0  # the sweep read again: the clue came in time
    state = stored(game_id).state
    assert state.round is not None
    assert state.round.clue == "just in time"
    assert state.round.storyteller_id == teller.player_id
    assert [m.attributes["kind"] for m in received(inbox)] == []


def test_the_sweep_pages_through_every_shard_and_never_scans(
    players: list[Client], inbox: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = [started([players[i], players[i + 1], players[i + 2]]) for i in range(0, 9, 3)]
    games += [started([players[i + 2], players[i + 1], players[i]]) for i in range(0, 9, 3)]
    assert len({due_shard(g) for g in games}) > 1
    operations: list[str] = []
    aws_clients.dynamodb().meta.events.register(
        "before-call.dynamodb", lambda model, **_: operations.append(model.name)
    )

    settings = get_settings()
    at = T0 + 24 * HOUR
    delivery = Delivery.of(bootstrap.services(settings=settings), lambda: at)
    report = sweep(
        bootstrap.services(settings=settings),
        delivery,
        int(at.timestamp()),
        remaining_ms=lambda: 60_000,
        page_size=2,
    )

    assert report.games_due == len(games)
    assert report.pages > len(games) // 2
    assert "Scan" not in operations
    assert all(stored(g).due_at == int((T0 + 43 * HOUR + timedelta(minutes=12)).timestamp()) for g in games)


def test_a_sweep_stops_before_its_time_runs_out_and_the_next_run_finishes(
    players: list[Client], inbox: str
) -> None:
    games = [started([players[i], players[i + 1], players[i + 2]]) for i in range(0, 12, 3)]
    at = T0 + 24 * HOUR

    # Every look at the clock costs 1 s, and the sweep looks once per shard page and once per game, in
    # shard order from the run's first shard. Games land in shards by their random ids, so the budget is
    # set from where they landed: enough looks to reach the first game, never enough for all four.
    first_shard = (int(at.timestamp()) // 60) % len(due_shards())
    order = due_shards()[first_shard:] + due_shards()[:first_shard]
    nearest = min(order.index(due_shard(game_id)) for game_id in games)
    looks_to_first_game = nearest + 2  # each shard page up to the game's, then the game itself
    first = sweep_at(at, CountdownContext(start_ms=3_000 + 1_000 * looks_to_first_game, step_ms=1_000))
    assert first["stopped_early"] is True
    assert 0 < first["games_due"] < len(games)

    second = sweep_at(at)
    assert second["stopped_early"] is False
    assert first["games_due"] + second["games_due"] == len(games)
    assert sweep_at(at)["games_due"] == 0
    assert len(received(inbox)) == len(games)  # each storyteller reminded once


def test_a_finished_game_leaves_the_due_index(players: list[Client], inbox: str) -> None:
    game_id = started(players[:3], timeout_policy="skip")
    # Nobody ever answers: storyteller after storyteller times out, and a full rotation abandons it.
    for _ in range(20):
        due_at = stored(game_id).due_at
        if due_at is None:
            break
        sweep_at(datetime.fromtimestamp(due_at, UTC))
    record = stored(game_id)
    assert record.state.phase.value == "finished"
    assert record.state.end_reason is not None
    assert record.state.end_reason.value == "abandoned"
    assert record.due_at is None
    item = boto3.client("dynamodb").get_item(
        TableName=get_settings().table_name, Key={"pk": {"S": f"GAME#{game_id}"}, "sk": {"S": "STATE"}}
    )["Item"]
    assert "due_at" not in item
    assert "due_shard" not in item


def test_a_public_lobby_is_only_looked_at_again_and_nobody_is_told(players: list[Client], inbox: str) -> None:
    game_id = lobby(players[:3])
    report = sweep_at(T0 + 24 * HOUR)
    assert (report["games_due"], report["entries_moved"]) == (1, 1)
    assert stored(game_id).due_at == int((T0 + 48 * HOUR).timestamp())
    private = lobby(players[3:6], visibility="private")
    assert stored(private).due_at is None  # private lobbies enter the index when they start
    assert received(inbox) == []


def test_under_wait_the_deadline_reminds_once_more_and_skips_nobody(
    players: list[Client], inbox: str
) -> None:
    game_id = started(players[:3], timeout_policy="wait", move_timeout_hours=24)
    teller = storyteller(players[:3], game_id).player_id

    report = sweep_at(T0 + 30 * HOUR)

    assert (report["timeouts_applied"], report["reminders_sent"]) == (0, 1)
    assert stored(game_id).state.round is not None
    assert stored(game_id).state.round.storyteller_id == teller  # type: ignore[union-attr]
    assert stored(game_id).due_at is None  # nothing more is due until someone moves
    assert sweep_at(T0 + 300 * HOUR)["games_due"] == 0
