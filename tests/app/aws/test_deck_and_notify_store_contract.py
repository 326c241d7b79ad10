"""What the deck and notification stores promise, on DynamoDB (moto) and in memory alike."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.aws.dynamodb.decks import DynamoDeckStore
from app.decks.ports import CardState, CardStatus, DeckRecord
from app.notify.devices.channels import Platform
from app.notify.holding import shard_of
from app.notify.messages import Kind, Notification
from app.notify.ports import Device, Held, Preferences
from app.notify.preferences import Channel, NotificationPreferences, UnsubscribeScope
from dixit.quiet_hours import QuietHours
from tests.support.aws import TABLE, empty_table, forget_clients_and_settings, set_environment

STAMP = "2026-03-01T12:00:00.000+00:00"
DECK = "d0123456789abcdef"
READY = CardState(CardStatus.READY)


def deck(card_count: int = 3) -> DeckRecord:
    return DeckRecord(DECK, "p_owner", "Holiday snaps", card_count, created_at=STAMP)


def device(device_id: str, endpoint: str = "arn:endpoint/1") -> Device:
    return Device(device_id, Platform.FCM, endpoint, STAMP)


# Decks


def test_a_new_deck_is_read_back_with_every_card_pending_and_an_unknown_deck_is_none(store: Any) -> None:
    store.create_deck(deck())
    stored = store.get_deck(DECK)
    assert stored == deck()
    assert [stored.state_of(c).status for c in stored.card_ids()] == [CardStatus.PENDING] * 3
    assert not stored.ready
    assert store.get_deck("dffffffffffffffff") is None


def test_each_cards_outcome_is_kept_apart_and_the_deck_is_ready_once_every_card_is(store: Any) -> None:
    store.create_deck(deck())
    first, second, third = deck().card_ids()
    assert store.record_card(first, READY)
    assert store.record_card(second, CardState(CardStatus.REJECTED, "not a JPEG"))
    stored = store.get_deck(DECK)
    assert (stored.state_of(first), stored.state_of(second)) == (
        READY,
        CardState(CardStatus.REJECTED, "not a JPEG"),
    )
    assert not stored.ready
    assert store.record_card(second, READY)  # a new upload of the same card replaces its outcome
    assert store.record_card(third, READY)
    assert store.get_deck(DECK).ready


def test_a_decks_card_descriptions_are_read_back_as_they_were_given(store: Any) -> None:
    described = DeckRecord(
        DECK, "p_owner", "Holiday snaps", 3, created_at=STAMP, descriptions={f"{DECK}-002": "a kite"}
    )
    store.create_deck(described)
    assert store.get_deck(DECK) == described
    assert store.record_card(f"{DECK}-002", READY)
    assert store.get_deck(DECK).descriptions == {f"{DECK}-002": "a kite"}


def test_the_descriptions_of_a_games_decks_are_read_together_and_an_unknown_deck_adds_none(
    store: Any,
) -> None:
    other = "dfedcba9876543210"
    store.create_deck(replace(deck(), descriptions={f"{DECK}-001": "a kite", f"{DECK}-003": "rain"}))
    store.create_deck(DeckRecord(other, "p_owner", "Plain", 6, created_at=STAMP))
    store.record_card(f"{DECK}-001", READY)
    assert store.descriptions_of([DECK, other, "dffffffffffffffff"]) == {
        f"{DECK}-001": "a kite",
        f"{DECK}-003": "rain",
    }
    assert store.descriptions_of([other]) == {}
    assert store.descriptions_of([]) == {}


@pytest.mark.usefixtures("_moto")
def test_on_dynamodb_a_decks_descriptions_are_read_once_in_one_batch_of_descriptions_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    set_environment(monkeypatch)
    writer, reader = DynamoDeckStore(TABLE), DynamoDeckStore(TABLE)
    other = "dfedcba9876543210"
    writer.create_deck(replace(deck(), descriptions={f"{DECK}-002": "a kite"}))
    writer.create_deck(DeckRecord(other, "p_owner", "Plain", 6, created_at=STAMP))
    sent: list[tuple[str, dict[str, Any]]] = []

    def record(params: dict[str, Any], model: Any, **_: Any) -> None:
        sent.append((model.name, params))

    events = reader.client.meta.events
    events.register("provide-client-params.dynamodb", record)
    try:
        for _ in range(3):
            assert reader.descriptions_of([DECK, other]) == {f"{DECK}-002": "a kite"}
        assert reader.descriptions_of([other]) == {}
    finally:
        events.unregister("provide-client-params.dynamodb", record)
        empty_table()
        forget_clients_and_settings()
    [(name, params)] = sent
    assert name == "BatchGetItem"
    [request] = params["RequestItems"].values()
    assert len(request["Keys"]) == 2
    assert "cards" not in request["ProjectionExpression"]


def test_an_upload_for_a_deck_that_does_not_exist_is_not_recorded(store: Any) -> None:
    assert not store.record_card("dffffffffffffffff-001", READY)
    assert store.get_deck("dffffffffffffffff") is None


# Mutes


def test_mutes_are_off_until_set_and_muting_games_is_kept_apart_from_muting_everything(store: Any) -> None:
    assert store.preferences("p_1") == Preferences()
    store.set_game_muted("p_1", "g_1", True)
    store.set_game_muted("p_1", "g_2", True)
    store.set_game_muted("p_1", "g_1", True)  # muting twice is muting once
    store.set_muted("p_1", True)
    assert store.preferences("p_1") == Preferences(muted=True, muted_games=frozenset({"g_1", "g_2"}))
    store.set_muted("p_1", False)
    store.set_game_muted("p_1", "g_1", False)
    assert store.preferences("p_1") == Preferences(muted=False, muted_games=frozenset({"g_2"}))
    assert store.preferences("p_2") == Preferences()


def test_preferences_are_kept_whole_and_saving_them_leaves_the_game_mutes_alone(store: Any) -> None:
    store.set_game_muted("p_1", "g_1", True)
    chosen = NotificationPreferences(
        muted=True,
        time_zone="Europe/Paris",
        quiet_hours=QuietHours.parse("22:00", "08:00"),
        channels={
            Channel.EMAIL: frozenset({Kind.GAME_OVER}),
            Channel.WEB_PUSH: frozenset(),
            Channel.DEVICE_PUSH: frozenset({Kind.YOUR_TURN, Kind.REMINDER}),
        },
        digest_hour=7,
        digest_talk=False,
        link_generations={UnsubscribeScope.EMAIL: 2},
    )
    store.save_preferences("p_1", chosen)
    assert store.preferences("p_1") == Preferences(
        muted=True,
        muted_games=frozenset({"g_1"}),
        time_zone="Europe/Paris",
        quiet_hours=QuietHours.parse("22:00", "08:00"),
        channels=chosen.channels,
        digest_hour=7,
        digest_talk=False,
        link_generations={UnsubscribeScope.EMAIL: 2},
    )
    store.save_preferences("p_1", NotificationPreferences())
    assert store.preferences("p_1") == Preferences(muted_games=frozenset({"g_1"}))


# Held through quiet hours


def note(player_id: str, occasion: str) -> Notification:
    return Notification(Kind.REMINDER, "g_1", player_id, occasion, "voting", 2)


def test_held_notifications_come_back_once_due_in_release_order_and_once_each(store: Any) -> None:
    first, second, later = note("p_1", "a"), note("p_1", "b"), note("p_1", "c")
    shard = shard_of("p_1")
    store.hold(second, release_at=200)
    store.hold(first, release_at=100)
    store.hold(later, release_at=300)
    store.hold(first, release_at=100)  # the same one again: still one
    assert store.held_page(shard, 99, limit=10) == ([], None)
    page, _ = store.held_page(shard, 200, limit=10)
    assert page == [Held(first, 100), Held(second, 200)]
    assert store.held_page(str((int(shard) + 1) % 8), 300, limit=10)[0] == []  # other shards hold none
    assert store.take_held(Held(first, 100))
    assert not store.take_held(Held(first, 100))  # taken once: one sender only
    assert store.held_page(shard, 300, limit=10)[0] == [Held(second, 200), Held(later, 300)]


def test_held_notifications_page_through_a_busy_shard(store: Any) -> None:
    for n in range(5):
        store.hold(note("p_1", f"o{n}"), release_at=100 + n)
    seen: list[Held] = []
    start = None
    while True:
        page, start = store.held_page(shard_of("p_1"), 200, limit=2, start=start)
        seen += page
        if start is None:
            break
    assert [h.notification.occasion for h in seen] == [f"o{n}" for n in range(5)]


# Rate limits


def test_a_reminder_slot_is_taken_once_per_window_and_frees_up_when_the_window_has_passed(store: Any) -> None:
    assert store.claim_reminder("p_1", now=1_000, window_seconds=100)
    assert not store.claim_reminder("p_1", now=1_099, window_seconds=100)
    assert store.claim_reminder("p_2", now=1_099, window_seconds=100)  # per player
    assert store.claim_reminder("p_1", now=1_100, window_seconds=100)
    assert not store.claim_reminder("p_1", now=1_150, window_seconds=100)  # the window restarts at 1 100


def test_a_taken_nudge_slot_says_how_long_until_it_frees_up(store: Any) -> None:
    assert store.claim_game_nudge("g_1", now=1_000, window_seconds=3_600) is None
    assert store.claim_game_nudge("g_1", now=1_600, window_seconds=3_600) == 3_000
    assert store.claim_game_nudge("g_2", now=1_600, window_seconds=3_600) is None  # per game
    assert store.claim_game_nudge("g_1", now=4_600, window_seconds=3_600) is None


# Devices


def test_devices_are_listed_by_id_and_registering_one_again_replaces_it(store: Any) -> None:
    store.put_device("p_1", device("phone-b"))
    store.put_device("p_1", device("phone-a", "arn:endpoint/2"))
    store.put_device("p_1", device("phone-b", "arn:endpoint/3"))
    assert store.devices("p_1") == [device("phone-a", "arn:endpoint/2"), device("phone-b", "arn:endpoint/3")]
    assert store.get_device("p_1", "phone-b") == device("phone-b", "arn:endpoint/3")
    assert store.get_device("p_2", "phone-b") is None
    assert store.devices("p_2") == []


def test_a_device_is_removed_only_while_it_still_points_at_the_endpoint_named(store: Any) -> None:
    store.put_device("p_1", device("phone", "arn:endpoint/new"))
    assert not store.delete_device("p_1", "phone", endpoint_arn="arn:endpoint/old")
    assert store.get_device("p_1", "phone") is not None
    assert store.delete_device("p_1", "phone", endpoint_arn="arn:endpoint/new")
    assert store.get_device("p_1", "phone") is None
    assert not store.delete_device("p_1", "phone")
    assert not store.delete_device("p_1", "phone", endpoint_arn="arn:endpoint/new")
    store.put_device("p_1", device("tablet"))
    assert store.delete_device("p_1", "tablet")
    assert store.devices("p_1") == []
