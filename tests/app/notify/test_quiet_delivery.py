"""Every send gated by the player's preferences, held through their quiet hours and released after."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from app.core.deadline import Deadline
from app.core.errors import InvalidInput, StoreUnavailable
from app.core.records import PlayerRecord, Visibility
from app.flows.sweep import sweep
from app.games import play as games
from app.notify import delivery as delivery_module
from app.notify import holding, my_preferences
from app.notify.delivery import Delivery, Outcome
from app.notify.messages import Kind, Notification, reminder
from app.notify.preferences import Channel, NotificationPreferences
from app.players import accounts
from app.services import Services
from dixit.moves import GiveClue, Join, Start
from dixit.quiet_hours import QuietHours, SeatQuiet
from dixit.state import GameState
from tests.fakes.notify import MemoryNotificationStore
from tests.fakes.push import MemoryNotifier
from tests.support.clock import Clock

from .test_delivery import register

# The clock starts at 12:00 UTC on 1 March 2026: 13:00 in Paris, inside these quiet hours.
SIESTA = {"time_zone": "Europe/Paris", "quiet_hours": {"start": "12:30", "end": "14:00"}}
SIESTA_ENDS = int(datetime(2026, 3, 1, 13, 0, tzinfo=UTC).timestamp())
FOREVER = 10**9


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    for module in (delivery_module, holding):
        monkeypatch.setattr(module, "count", lambda name, value=1: seen.append(name))
    return seen


def started_game(services: Services) -> tuple[list[PlayerRecord], GameState]:
    seats = [accounts.register(services, f"Player {n}")[0] for n in range(3)]
    host = seats[0]
    made = games.create_game(
        services, host, rules="classic", decks=None, max_players=None, target_score=None,
        visibility=Visibility.PRIVATE,
    ).record  # fmt: skip
    assert made is not None
    for guest in seats[1:]:
        games.play(services, guest, made.game_id, Join(guest.player_id, guest.name),
                   invite_code=made.invite_code)  # fmt: skip
    record = games.play(services, host, made.game_id, Start(host.player_id)).record
    assert record is not None
    return seats, record.state


def teller_of(seats: list[PlayerRecord], state: GameState) -> PlayerRecord:
    assert state.round is not None
    return next(p for p in seats if p.player_id == state.round.storyteller_id)


def your_turn(player: PlayerRecord, game_id: str = "g_0000000000000001") -> Notification:
    return Notification(Kind.YOUR_TURN, game_id, player.player_id, occasion="3")


def release(services: Services, deliver: Delivery) -> holding.ReleaseReport:
    return holding.release(services, deliver, deliver.now_epoch(), remaining_ms=lambda: FOREVER, reserve_ms=0)


# What each channel wants


def test_wants_follows_the_kinds_each_channel_keeps_and_the_mutes() -> None:
    chosen = NotificationPreferences(
        channels={Channel.EMAIL: frozenset({Kind.GAME_OVER}), Channel.WEB_PUSH: frozenset()},
        muted_games=frozenset({"g_muted"}),
    )
    assert chosen.wants(Channel.EMAIL, Kind.GAME_OVER, "g_1")
    assert not chosen.wants(Channel.EMAIL, Kind.YOUR_TURN, "g_1")
    assert not chosen.wants(Channel.WEB_PUSH, Kind.GAME_OVER, "g_1")
    assert not chosen.wants(Channel.DEVICE_PUSH, Kind.GAME_OVER, "g_1")  # not listed: nothing
    assert not chosen.wants(Channel.EMAIL, Kind.GAME_OVER, "g_muted")
    everything = NotificationPreferences()
    # A timeout is news about a turn: it goes where "your turn" goes.
    assert everything.wants(Channel.DEVICE_PUSH, Kind.TIMEOUT, "g_1")
    no_turns = NotificationPreferences(channels={Channel.DEVICE_PUSH: frozenset({Kind.REMINDER})})
    assert not no_turns.wants(Channel.DEVICE_PUSH, Kind.TIMEOUT, "g_1")
    assert not NotificationPreferences(muted=True).wants(Channel.EMAIL, Kind.GAME_OVER, "g_1")


def test_a_channel_that_does_not_want_a_kind_does_not_get_it(
    services: Services, deliver: Delivery, push: MemoryNotifier, ada: PlayerRecord, counted: list[str]
) -> None:
    register(deliver, ada, "phone")
    my_preferences.change(services, ada, {"channels": {"device_push": ["game_over"]}})
    assert deliver.deliver(your_turn(ada)) is Outcome.SENT
    assert push.pushed == []
    assert [n.kind for n in push.published] == [Kind.YOUR_TURN]  # the topic hears of everything
    assert deliver.deliver(Notification(Kind.GAME_OVER, "g_1", ada.player_id, occasion="9")) is Outcome.SENT
    assert [n.kind for _, n in push.pushed] == [Kind.GAME_OVER]
    assert "NotifyQueued_device_push" in counted


# Quiet hours hold


@pytest.fixture
def ada(services: Services) -> PlayerRecord:
    return accounts.register(services, "Ada")[0]


def test_nothing_is_sent_inside_quiet_hours_and_everything_is_when_they_end(
    services: Services,
    deliver: Delivery,
    push: MemoryNotifier,
    store: MemoryNotificationStore,
    clock: Clock,
    ada: PlayerRecord,
    counted: list[str],
) -> None:
    register(deliver, ada, "phone")
    my_preferences.change(services, ada, SIESTA)
    over = Notification(Kind.GAME_OVER, "g_1", ada.player_id, occasion="9")
    assert deliver.deliver(over) is Outcome.HELD
    assert push.published == []
    assert push.pushed == []
    assert [(h.notification, h.release_at) for h in store.held] == [(over, SIESTA_ENDS)]
    assert "NotificationsHeld" in counted

    clock.advance(minutes=59)
    assert release(services, deliver).released == 0
    assert push.pushed == []
    clock.advance(minutes=1)
    assert release(services, deliver).released == 1
    assert push.published == [over]
    assert [n for _, n in push.pushed] == [over]
    # Released once: a second (or overlapping) run finds nothing left.
    assert release(services, deliver).released == 0
    assert len(push.pushed) == 1
    assert store.held == []


def test_a_muted_player_is_not_held_for_later(
    services: Services, deliver: Delivery, store: MemoryNotificationStore, ada: PlayerRecord
) -> None:
    my_preferences.change(services, ada, {**SIESTA, "muted": True})
    assert deliver.deliver(your_turn(ada)) is Outcome.MUTED
    assert store.held == []


def test_a_player_who_muted_during_the_night_hears_nothing_in_the_morning(
    services: Services, deliver: Delivery, push: MemoryNotifier, clock: Clock, ada: PlayerRecord
) -> None:
    my_preferences.change(services, ada, SIESTA)
    assert deliver.deliver(Notification(Kind.GAME_OVER, "g_1", ada.player_id, occasion="9")) is Outcome.HELD
    my_preferences.change(services, ada, {"muted": True})
    clock.advance(hours=1)
    assert release(services, deliver).released == 0
    assert push.published == []


def test_a_held_reminder_takes_the_reminder_slot_only_when_it_is_sent(
    services: Services, deliver: Delivery, push: MemoryNotifier, clock: Clock
) -> None:
    seats, state = started_game(services)
    teller = teller_of(seats, state)
    my_preferences.change(services, teller, SIESTA)
    held = reminder(state, teller.player_id, "d1")
    assert deliver.send_reminder(held) is Outcome.HELD
    clock.advance(hours=1)
    assert release(services, deliver).released == 1
    assert push.published == [held]
    # The slot was taken at release: another reminder within 12 hours is limited.
    assert deliver.send_reminder(reminder(state, teller.player_id, "d2")) is Outcome.LIMITED


def test_a_reminder_stale_by_the_morning_is_dropped(
    services: Services, deliver: Delivery, push: MemoryNotifier, clock: Clock, counted: list[str]
) -> None:
    seats, state = started_game(services)
    teller = teller_of(seats, state)
    my_preferences.change(services, teller, SIESTA)
    assert deliver.send_reminder(reminder(state, teller.player_id, "d1")) is Outcome.HELD
    # The storyteller moves during their siesta (the web client is open): the reminder is no longer true.
    card = state.hands[teller.player_id][0]
    games.play(services, teller, state.game_id, GiveClue(teller.player_id, card, "a long nap"))
    clock.advance(hours=1)
    report = release(services, deliver)
    assert (report.released, report.dropped) == (0, 1)
    assert push.published == []
    assert "HeldDroppedStale" in counted


def test_a_message_held_for_an_account_deleted_overnight_is_dropped(
    services: Services, deliver: Delivery, push: MemoryNotifier, store: MemoryNotificationStore, clock: Clock
) -> None:
    store.hold(Notification(Kind.GAME_OVER, "g_1", "p_gone", occasion="9"), release_at=SIESTA_ENDS)
    clock.advance(hours=1)
    assert release(services, deliver).dropped == 1
    assert push.published == []
    assert store.held == []


def test_staleness_follows_the_owed_move_and_its_deadline(services: Services) -> None:
    seats, state = started_game(services)
    teller = teller_of(seats, state).player_id
    other = next(p.player_id for p in seats if p.player_id != teller)
    deadline = state.deadline()
    assert deadline is not None
    owed = reminder(state, teller, "d")
    assert not holding.stale(owed, state, deadline - 1)
    assert holding.stale(owed, state, deadline)  # its deadline passed
    assert holding.stale(reminder(state, other, "d"), state, deadline - 1)  # not owed by them
    assert holding.stale(owed, None, deadline - 1)  # the game is gone
    over = Notification(Kind.GAME_OVER, state.game_id, teller, occasion="9")
    assert not holding.stale(over, None, deadline)


def test_held_notifications_round_trip_and_spread_over_the_shards() -> None:
    note = Notification(Kind.REMINDER, "g_1", "p_1", "2026-03-01T12:00:00Z/reminder", "voting", 3, "p_2", "x")
    assert holding.from_json(holding.to_json(note)) == note
    assert {holding.shard_of(f"p_{n}") for n in range(200)} == set(holding.shards())


def test_the_sweep_releases_what_quiet_hours_held(
    services: Services, deliver: Delivery, push: MemoryNotifier, clock: Clock, ada: PlayerRecord
) -> None:
    my_preferences.change(services, ada, SIESTA)
    over = Notification(Kind.GAME_OVER, "g_1", ada.player_id, occasion="9")
    deliver.deliver(over)
    clock.advance(hours=2)
    report = sweep(services, Delivery.of(services), deliver.now_epoch(), remaining_ms=lambda: FOREVER)
    assert report.held_released == 1
    assert push.published == [over]


# Seats follow their player's preferences


def test_changing_quiet_hours_refreshes_the_seat_in_each_active_game_once(services: Services) -> None:
    seats, state = started_game(services)
    teller = teller_of(seats, state)
    my_preferences.change(services, teller, {"time_zone": "Asia/Tokyo"})
    assert games.load_game(services, state.game_id).state.quiet == {}  # no quiet hours: nothing to keep
    my_preferences.change(services, teller, SIESTA)
    after = games.load_game(services, state.game_id).state
    assert after.quiet == {teller.player_id: SeatQuiet("Europe/Paris", QuietHours.parse("12:30", "14:00"))}
    assert after.version == state.version + 1
    my_preferences.change(services, teller, SIESTA)  # a retry writes nothing more
    assert games.load_game(services, state.game_id).state.version == after.version
    my_preferences.change(services, teller, {"quiet_hours": None})
    assert games.load_game(services, state.game_id).state.quiet == {}


def test_a_refused_change_saves_nothing_and_touches_no_game(services: Services) -> None:
    seats, state = started_game(services)
    teller = teller_of(seats, state)
    with pytest.raises(InvalidInput, match="tz database"):
        my_preferences.change(services, teller, {**SIESTA, "time_zone": "Nowhere/Land"})
    assert my_preferences.show(services, teller) == NotificationPreferences()
    assert games.load_game(services, state.game_id).state.version == state.version


def test_a_change_that_runs_out_of_time_is_finished_by_sending_it_again(services: Services) -> None:
    seats, state = started_game(services)
    teller = teller_of(seats, state)
    hurried = replace(services, deadline=Deadline(at=0.0, clock=lambda: 0.0))
    with pytest.raises(StoreUnavailable):
        my_preferences.change(hurried, teller, SIESTA)
    assert my_preferences.show(services, teller).quiet_hours is not None  # saved before the games
    assert games.load_game(services, state.game_id).state.quiet == {}
    my_preferences.change(services, teller, SIESTA)
    assert teller.player_id in games.load_game(services, state.game_id).state.quiet
