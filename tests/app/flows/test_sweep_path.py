"""The sweep's timeout takes the players' move path: the same request ids, retries and fault handling."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.core.errors import StoreUnavailable
from app.core.records import GameRecord, Visibility
from app.flows.sweep import sweep
from app.games import play as games
from app.notify.delivery import Outcome
from app.notify.messages import Notification
from app.players import accounts as players
from app.services import Services
from dixit.moves import Join, Start

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
