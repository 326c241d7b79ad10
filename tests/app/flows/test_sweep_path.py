"""The sweep's timeout takes the players' move path: the same request ids, retries and fault handling;
and a timeout whose write landed while its answer was lost is told like any other."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.core.errors import StoreUnavailable, VersionConflict
from app.core.records import GameRecord, PlayerRecord, Visibility
from app.flows.sweep import sweep
from app.games import play as games
from app.notify.delivery import Outcome
from app.notify.messages import Notification
from app.players import accounts as players
from app.services import Services
from app.webhooks.dispatch import WebhookMessage
from app.webhooks.records import WebhookRecord
from dixit.moves import Join, Start
from tests.fakes.queue import MemoryWebhookQueue

from ..staging import Interleaved

HOUR = 3_600


class Told:
    """Stands in for Delivery: what the sweep would have sent."""

    def __init__(self) -> None:
        self.sent: list[Notification] = []

    def deliver(self, notification: Notification) -> Outcome:
        self.sent.append(notification)
        return Outcome.SENT

    def send_reminder(self, notification: Notification) -> Outcome:
        return self.deliver(notification)


class FailingSaves:
    """The store refuses the next `times` game writes with a fault, as a throttled table does."""

    def __init__(self, inner: Interleaved, times: int) -> None:
        self.inner = inner
        self.left = times
        self.refused = 0

    def save_game(self, write: Any) -> None:
        if self.left:
            self.left -= 1
            self.refused += 1
            raise StoreUnavailable()
        self.inner.save_game(write)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class LostAnswers:
    """The next `times` game writes land, but their answer is lost: the store reports a fault (or, as
    when botocore retried the write and the retry failed its condition, a lost race). After one, the
    next `blinks` reads fail too, as when the store keeps failing through the move path's last look."""

    def __init__(self, inner: Interleaved, times: int, error: type[Exception], blinks: int = 0) -> None:
        self.inner = inner
        self.left = times
        self.error = error
        self.blinks = blinks
        self.blinking = 0
        self.landed = 0

    def save_game(self, write: Any) -> None:
        self.inner.save_game(write)
        if not self.left:
            return
        self.left -= 1
        self.landed += 1
        self.blinking = self.blinks
        raise StoreUnavailable() if self.error is StoreUnavailable else VersionConflict(None)

    def load_game(self, game_id: str) -> GameRecord | None:
        if self.blinking:
            self.blinking -= 1
            raise StoreUnavailable()
        return self.inner.load_game(game_id)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def started(services: Services) -> GameRecord:
    """A three-player game whose storyteller has one hour, started now (the services' fixed clock)."""
    host, *guests = [players.register(services, f"Player {n}")[0] for n in range(3)]
    record = games.create_game(
        services, host, rules="classic", decks=None, max_players=None, target_score=None,
        visibility=Visibility.PUBLIC, move_timeout_hours=1, timeout_policy="skip",
    ).record  # fmt: skip
    assert record is not None
    for guest in guests:
        games.play(services, guest, record.game_id, Join(guest.player_id, guest.name))
    played = games.play(services, host, record.game_id, Start(host.player_id)).record
    assert played is not None
    assert played.due_at is not None
    return played


def sweep_at(services: Services, told: Told, seconds_later: int) -> Any:
    now = services.now_epoch() + seconds_later
    return sweep(services, told, now, remaining_ms=lambda: 60_000)  # type: ignore[arg-type]


def test_a_timeout_is_written_with_a_request_id_like_every_move(services: Services) -> None:
    record = started(services)
    told = Told()

    report = sweep_at(services, told, 2 * HOUR)

    after = games.load_game(services, record.game_id)
    assert report.timeouts_applied == 1
    assert after.version == record.version + 1
    # One more request id remembered: a timeout whose answer was lost is recognised as landed.
    assert len(after.recent_requests) == len(record.recent_requests) + 1
    assert after.recent_requests[:-1] == record.recent_requests
    assert [n.kind.value for n in told.sent] == ["timeout"]


def test_a_store_fault_on_the_timeouts_write_is_retried_within_the_same_run(
    services: Services, staged: Interleaved
) -> None:
    record = started(services)
    flaky = FailingSaves(staged, times=2)

    report = sweep_at(replace(services, games=flaky, pause=lambda _: None), Told(), 2 * HOUR)

    assert flaky.refused == 2
    assert report.timeouts_applied == 1
    assert games.load_game(services, record.game_id).version == record.version + 1


def test_a_store_that_keeps_failing_leaves_the_game_due_for_the_next_run(
    services: Services, staged: Interleaved
) -> None:
    record = started(services)
    told = Told()

    failing = replace(services, games=FailingSaves(staged, times=10_000), pause=lambda _: None)

    report = sweep_at(failing, told, 2 * HOUR)

    assert report.timeouts_applied == 0
    assert told.sent == []
    unchanged = games.load_game(services, record.game_id)
    assert unchanged.version == record.version
    assert unchanged.due_at == record.due_at
    # The next run, with the store back, applies it.
    assert sweep_at(services, told, 2 * HOUR).timeouts_applied == 1


def hooked(services: Services, record: GameRecord) -> PlayerRecord:
    """The host of `record`, with a webhook that wants timeouts."""
    host = services.players.get_player(record.state.host_id)
    assert host is not None
    hook = WebhookRecord("wh_00000000000000a1", host.player_id, "https://h.example/", ("timeout",), "s", "t")
    assert services.webhooks.create_webhook(hook, max_per_player=5)
    return host


@pytest.mark.parametrize(
    ("error", "blinks"),
    [
        (StoreUnavailable, 0),  # the move path's next read finds the write: nothing applied, it says
        (VersionConflict, 0),  # the same, after botocore's retry of the landed write lost its race
        (StoreUnavailable, 1),  # the move path's next read fails too: it raises, though the write landed
    ],
)
def test_a_timeout_whose_answer_was_lost_is_told_like_one_that_was_answered(
    services: Services, staged: Interleaved, error: type[Exception], blinks: int
) -> None:
    record = started(services)
    host = hooked(services, record)
    told, queue = Told(), MemoryWebhookQueue()
    lost = LostAnswers(staged, times=1, error=error, blinks=blinks)
    now = services.now_epoch() + 2 * HOUR

    report = sweep(
        replace(services, games=lost, pause=lambda _: None),
        told,  # type: ignore[arg-type]
        now,
        remaining_ms=lambda: 60_000,
        webhooks=queue,
    )

    after = games.load_game(services, record.game_id)
    assert lost.landed == 1
    assert after.version == record.version + 1  # written once, by the first attempt
    assert (report.timeouts_applied, report.lost_races) == (1, 0)
    owed = record.state.round
    assert owed is not None
    assert [(n.kind.value, n.player_id) for n in told.sent] == [("timeout", owed.storyteller_id)]
    [message] = [WebhookMessage.from_json(body) for body in queue.sent]
    assert (message.player_id, message.event["type"]) == (host.player_id, "timeout")
    feed = services.feed.list_feed(record.game_id, host.player_id, after="", limit=100)
    assert any('"type":"timeout"' in item.event_json for item in feed)
    # Told once: the next run finds nothing due.
    assert sweep_at(services, told, 2 * HOUR).timeouts_applied == 0
    assert len(told.sent) == 1
