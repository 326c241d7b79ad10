"""Limits and mutes: one reminder per player per 12 hours, hand nudges once per game per hour."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app import bootstrap
from app.aws.dynamodb.games import DynamoGameStore
from app.core.errors import RateLimited
from app.core.records import PlayerRecord
from app.core.settings import get_settings
from app.core.telemetry import metrics
from app.notify.delivery import Delivery, Outcome, nudge_game
from app.notify.messages import Kind, Notification, reminder
from dixit.state import GameState
from dixit.views import waiting_for

from ..client import Client
from ..helpers import assert_problem, give_clue, lobby, started, storyteller
from ..sns_inbox import Published, make_topic, received, subscribe_queue

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


class FakeClock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def inbox(aws: None, monkeypatch: pytest.MonkeyPatch) -> str:
    return subscribe_queue(make_topic(monkeypatch), "limits")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


@pytest.fixture
def delivery(inbox: str, clock: FakeClock) -> Delivery:
    return Delivery.of(bootstrap.services(), clock)


@pytest.fixture(autouse=True)
def _no_metric_buildup() -> None:
    metrics.clear_metrics()  # use cases count outside a handler here


def load_state(game_id: str) -> GameState:
    record = DynamoGameStore(get_settings().table_name).load_game(game_id)
    assert record is not None
    return record.state


def kinds(messages: list[Published]) -> list[tuple[str, str]]:
    return sorted((m.attributes["kind"], m.attributes["player_id"]) for m in messages)


def test_a_player_gets_at_most_one_reminder_per_12_hours_across_all_their_games(
    players: list[Client], delivery: Delivery, clock: FakeClock, inbox: str
) -> None:
    first = load_state(started(players[:3]))
    other_game = load_state(started(players[:3]))
    target = players[0].player_id

    assert delivery.send_reminder(reminder(first, target, "d1")) is Outcome.SENT
    clock.now = T0 + timedelta(hours=11, minutes=59)
    assert delivery.send_reminder(reminder(other_game, target, "d2")) is Outcome.LIMITED
    clock.now = T0 + timedelta(hours=12)
    assert delivery.send_reminder(reminder(other_game, target, "d2")) is Outcome.SENT

    assert kinds(received(inbox)) == [("reminder", target), ("reminder", target)]


def test_the_reminder_limit_is_per_player(players: list[Client], delivery: Delivery, inbox: str) -> None:
    game_id = started(players[:4])
    give_clue(players[:4], game_id)
    state = load_state(game_id)
    outcomes = [delivery.send_reminder(reminder(state, pid, "d")) for pid in waiting_for(state)]
    assert outcomes == [Outcome.SENT] * 3
    assert len(received(inbox)) == 3


def test_a_muted_player_gets_no_reminder_and_keeps_their_slot(
    players: list[Client], delivery: Delivery, inbox: str
) -> None:
    game_id = started(players[:3])
    state = load_state(game_id)
    target = storyteller(players[:3], game_id)
    assert target.put("/players/me/notifications", {"muted": True}).body["muted"] is True

    assert delivery.send_reminder(reminder(state, target.player_id, "d")) is Outcome.MUTED

    assert target.put("/players/me/notifications", {"muted": False}).status == 200
    assert delivery.send_reminder(reminder(state, target.player_id, "d")) is Outcome.SENT
    assert kinds(received(inbox)) == [("reminder", target.player_id)]


def test_your_turn_is_never_limited(players: list[Client], delivery: Delivery, inbox: str) -> None:
    for version in range(5):
        notification = Notification(Kind.YOUR_TURN, "g_0123456789abcdef", players[0].player_id, str(version))
        assert delivery.deliver(notification) is Outcome.SENT
    assert len(received(inbox)) == 5


def test_a_member_nudges_the_players_the_game_waits_on_then_must_wait_an_hour(
    players: list[Client], inbox: str
) -> None:
    group = players[:4]
    game_id = started(group)
    teller = give_clue(group, game_id)
    nudger = next(p for p in group if p is not teller)

    reply = nudger.post(f"/games/{game_id}/nudges")

    assert reply.status == 202, reply.raw
    expected = sorted(p.player_id for p in group if p is not teller and p is not nudger)
    assert sorted(reply.body["nudged"]) == expected
    messages = received(inbox)
    assert kinds(messages) == [("reminder", pid) for pid in expected]
    assert {m.body["nudged_by"] for m in messages} == {nudger.player_id}

    again = teller.post(f"/games/{game_id}/nudges")
    body = assert_problem(again, 429, "nudge_too_soon")
    assert 3590 <= int(again.headers["Retry-After"]) <= 3600
    assert "hour" in body["detail"]
    assert received(inbox) == []


def test_a_nudge_answers_202_with_the_location_of_the_game_to_watch(
    players: list[Client], inbox: str
) -> None:
    group = players[:3]
    game_id = started(group)
    teller = give_clue(group, game_id)
    nudger = next(p for p in group if p is not teller)
    reply = nudger.post(f"/games/{game_id}/nudges")
    assert reply.status == 202, reply.raw
    assert reply.headers["Location"] == f"/games/{game_id}"


def test_a_retried_nudge_with_the_same_idempotency_key_replays_the_first_answer(
    players: list[Client], inbox: str
) -> None:
    group = players[:3]
    game_id = started(group)
    nudger = next(p for p in group if p is not storyteller(group, game_id))
    first = nudger.post(f"/games/{game_id}/nudges", headers={"Idempotency-Key": "k1"})
    retry = nudger.post(f"/games/{game_id}/nudges", headers={"Idempotency-Key": "k1"})
    assert (first.status, retry.status) == (202, 202)
    assert retry.body == first.body
    assert len(received(inbox)) == 1


def test_the_nudge_window_reopens_after_an_hour(
    players: list[Client], delivery: Delivery, clock: FakeClock
) -> None:
    group = players[:3]
    game_id = started(group)
    state = load_state(game_id)
    nudger = next(p for p in group if p.player_id not in waiting_for(state))
    me = PlayerRecord(nudger.player_id, nudger.name, "", "")
    assert nudge_game(delivery, me, state).next_nudge_at == (T0 + timedelta(hours=1)).isoformat()
    clock.now = T0 + timedelta(minutes=59, seconds=30)
    with pytest.raises(RateLimited) as refused:
        nudge_game(delivery, me, state)
    assert refused.value.retry_after == 30
    clock.now = T0 + timedelta(hours=1)
    assert nudge_game(delivery, me, state).nudged == waiting_for(state)


def test_nudging_is_for_members_of_a_game_that_waits_on_someone_else(
    players: list[Client], inbox: str
) -> None:
    group = players[:3]
    game_id = started(group)
    assert_problem(players[5].post(f"/games/{game_id}/nudges"), 403, "not_a_member")
    assert_problem(storyteller(group, game_id).post(f"/games/{game_id}/nudges"), 409, "nothing_to_nudge")
    waiting_room = lobby(players[6:9])
    assert_problem(players[6].post(f"/games/{waiting_room}/nudges"), 409, "nothing_to_nudge")
    assert_problem(players[0].post("/games/g_0000000000000000/nudges"), 404, "game_not_found")
    assert received(inbox) == []


def test_muting_a_game_is_for_its_members(players: list[Client]) -> None:
    game_id = lobby(players[:3])
    reply = players[1].put(f"/games/{game_id}/notifications", {"muted": True})
    assert reply.status == 200
    assert reply.body == {"muted": True, "game_id": game_id}
    assert_problem(players[5].put(f"/games/{game_id}/notifications", {"muted": True}), 403, "not_a_member")
    assert_problem(
        players[1].put("/games/g_0000000000000000/notifications", {"muted": True}), 404, "game_not_found"
    )
    assert_problem(
        players[1].put(f"/games/{game_id}/notifications", {"muted": "yes please"}), 422, "validation_error"
    )
    assert_problem(players[1].put("/players/me/notifications", {"muted": "yes"}), 422, "validation_error")
