"""app.notify.delivery: who hears what where, mutes, the reminder and nudge limits, and devices."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.core.errors import Conflict, Forbidden, InvalidInput, NotConfigured, NotFound, RateLimited
from app.core.records import PlayerRecord, Visibility
from app.games import play as games
from app.notify import delivery
from app.notify.delivery import Delivery, Outcome
from app.notify.devices.channels import Platform
from app.notify.messages import Kind, Notification
from app.players import accounts
from app.services import Services
from dixit.moves import Join, Start
from dixit.state import GameState
from tests.fakes.push import MemoryNotifier
from tests.support.clock import Clock


@pytest.fixture
def ada(services: Services) -> PlayerRecord:
    return accounts.register(services, "Ada")[0]


GAME = "g_0000000000000001"


def note(player: PlayerRecord, game_id: str = GAME, kind: Kind = Kind.YOUR_TURN) -> Notification:
    return Notification(kind, game_id, player.player_id, occasion="7")


def reminder(player: PlayerRecord, game_id: str = GAME) -> Notification:
    return note(player, game_id, Kind.REMINDER)


def register(deliver: Delivery, player: PlayerRecord, device_id: str, token: str = "") -> tuple[str, bool]:
    """Register an FCM device (by default with a push token of its own); its endpoint, and whether new."""
    token = token or f"token-{player.player_id}-{device_id}"
    device, new = delivery.register_device(deliver, player, device_id, Platform.FCM, token)
    return device.endpoint_arn, new


def started_game(services: Services, count: int = 3) -> tuple[list[PlayerRecord], GameState]:
    seats = [accounts.register(services, f"Player {n}")[0] for n in range(count)]
    host = seats[0]
    record = games.create_game(
        services, host, rules="classic", decks=None, max_players=None, target_score=None,
        visibility=Visibility.PRIVATE,
    ).record  # fmt: skip
    for guest in seats[1:]:
        games.play(services, guest, record.game_id, Join(guest.player_id, guest.name),
                   invite_code=record.invite_code)  # fmt: skip
    return seats, games.play(services, host, record.game_id, Start(host.player_id)).record.state


# Delivering


def test_a_notification_goes_to_the_topic_and_to_every_device_of_its_player_only(
    services: Services, deliver: Delivery, push: MemoryNotifier, ada: PlayerRecord
) -> None:
    bob = accounts.register(services, "Bob")[0]
    phone, _ = register(deliver, ada, "phone")
    tablet, _ = register(deliver, ada, "tablet")
    register(deliver, bob, "phone")
    sent = note(ada)

    assert deliver.deliver(sent) is Outcome.SENT

    assert push.published == [sent]
    assert sorted(push.pushed) == sorted([(phone, sent), (tablet, sent)])


def test_a_player_who_muted_everything_or_this_game_hears_nothing_of_it(
    services: Services, deliver: Delivery, push: MemoryNotifier, ada: PlayerRecord
) -> None:
    register(deliver, ada, "phone")
    delivery.set_muted(deliver, ada, True)
    assert deliver.deliver(note(ada)) is Outcome.MUTED
    delivery.set_muted(deliver, ada, False)
    seats, state = started_game(services)
    delivery.set_game_muted(deliver, seats[1], state, True)
    assert deliver.deliver(note(seats[1], state.game_id)) is Outcome.MUTED
    assert (push.published, push.pushed) == ([], [])

    assert deliver.deliver(note(seats[1], "g_00000000000000ff")) is Outcome.SENT  # another game
    assert deliver.deliver(note(ada)) is Outcome.SENT
    delivery.set_game_muted(deliver, seats[1], state, False)
    assert deliver.deliver(note(seats[1], state.game_id)) is Outcome.SENT
    assert [n.player_id for n in push.published] == [seats[1].player_id, ada.player_id, seats[1].player_id]


def test_only_a_member_may_mute_a_game(services: Services, deliver: Delivery, ada: PlayerRecord) -> None:
    _, state = started_game(services)
    with pytest.raises(Forbidden) as refused:
        delivery.set_game_muted(deliver, ada, state, True)
    assert refused.value.code == "not_a_member"
    assert services.notifications.preferences(ada.player_id).muted_games == frozenset()


def test_a_device_the_platform_disabled_is_forgotten_when_a_push_to_it_fails(
    services: Services, deliver: Delivery, push: MemoryNotifier, ada: PlayerRecord
) -> None:
    gone, _ = register(deliver, ada, "old-phone")
    kept, _ = register(deliver, ada, "phone")
    push.gone.add(gone)

    assert deliver.deliver(note(ada)) is Outcome.SENT

    assert [d.device_id for d in delivery.list_devices(deliver, ada)] == ["phone"]
    assert push.deleted == [gone]
    assert [arn for arn, _ in push.pushed] == [kept]


# The reminder limit


def test_a_player_hears_one_reminder_per_twelve_hours_across_all_their_games(
    deliver: Delivery, push: MemoryNotifier, clock: Clock, ada: PlayerRecord
) -> None:
    assert deliver.send_reminder(reminder(ada, GAME)) is Outcome.SENT
    clock.advance(hours=11, minutes=59)
    assert deliver.send_reminder(reminder(ada, "g_0000000000000002")) is Outcome.LIMITED
    assert deliver.deliver(note(ada)) is Outcome.SENT  # the limit is on reminders only
    clock.advance(minutes=1)
    assert deliver.send_reminder(reminder(ada, "g_0000000000000002")) is Outcome.SENT
    assert [(n.kind, n.game_id) for n in push.published] == [
        (Kind.REMINDER, GAME),
        (Kind.YOUR_TURN, GAME),
        (Kind.REMINDER, "g_0000000000000002"),
    ]


def test_one_players_reminder_does_not_hold_back_anothers(
    services: Services, deliver: Delivery, ada: PlayerRecord
) -> None:
    bob = accounts.register(services, "Bob")[0]
    assert deliver.send_reminder(reminder(ada)) is Outcome.SENT
    assert deliver.send_reminder(reminder(bob)) is Outcome.SENT


def test_a_muted_players_reminder_leaves_their_slot_for_when_they_unmute(
    deliver: Delivery, push: MemoryNotifier, ada: PlayerRecord
) -> None:
    delivery.set_muted(deliver, ada, True)
    assert deliver.send_reminder(reminder(ada)) is Outcome.MUTED
    delivery.set_muted(deliver, ada, False)
    assert deliver.send_reminder(reminder(ada)) is Outcome.SENT
    assert len(push.published) == 1


def test_only_reminders_go_through_the_reminder_limit(deliver: Delivery, ada: PlayerRecord) -> None:
    with pytest.raises(ValueError, match="reminders"):
        deliver.send_reminder(note(ada, kind=Kind.TIMEOUT))


# Nudges by hand


def test_a_game_is_nudged_by_hand_at_most_once_an_hour_whoever_asks(
    services: Services, deliver: Delivery, push: MemoryNotifier, clock: Clock
) -> None:
    seats, state = started_game(services)
    assert state.round is not None
    teller = state.round.storyteller_id
    others = [p for p in seats if p.player_id != teller]

    report = delivery.nudge_game(deliver, others[0], state)
    assert report.nudged == (teller,)
    assert [(n.player_id, n.nudged_by) for n in push.published] == [(teller, others[0].player_id)]

    clock.advance(minutes=20)
    with pytest.raises(RateLimited) as limited:
        delivery.nudge_game(deliver, others[1], state)
    assert limited.value.retry_after == 40 * 60
    clock.advance(minutes=40)
    assert delivery.nudge_game(deliver, others[1], state).nudged == (teller,)
    assert len(push.published) == 2


def test_a_nudge_says_who_has_no_way_to_be_reached(
    services: Services, deliver: Delivery, clock: Clock
) -> None:
    seats, state = started_game(services, count=4)
    assert state.round is not None
    teller = state.round.storyteller_id
    nudger = next(p for p in seats if p.player_id != teller)
    assert delivery.nudge_game(deliver, nudger, state).unreachable == (teller,)
    # A phone registered for push reaches them.
    register(deliver, next(p for p in seats if p.player_id == teller), "phone")
    clock.advance(minutes=61)  # past the once-an-hour limit
    assert delivery.nudge_game(deliver, nudger, state).unreachable == ()


def test_nobody_but_a_member_nudges_and_nobody_nudges_only_themselves(
    services: Services, deliver: Delivery, ada: PlayerRecord
) -> None:
    seats, state = started_game(services)
    with pytest.raises(Forbidden):
        delivery.nudge_game(deliver, ada, state)
    assert state.round is not None
    teller = next(p for p in seats if p.player_id == state.round.storyteller_id)
    with pytest.raises(Conflict) as refused:
        delivery.nudge_game(deliver, teller, state)
    assert refused.value.code == "nothing_to_nudge"


# Devices


def test_registering_a_device_creates_its_endpoint_and_registering_it_again_refreshes_it(
    deliver: Delivery, push: MemoryNotifier, clock: Clock, ada: PlayerRecord
) -> None:
    first, new = register(deliver, ada, "phone", "token-1")
    assert new
    registered_at = clock().isoformat()
    assert [(d.device_id, d.endpoint_arn, d.registered_at) for d in delivery.list_devices(deliver, ada)] == [
        ("phone", first, registered_at)
    ]
    clock.advance(days=1)
    second, new = register(deliver, ada, "phone", "token-2")  # the app was given a new push token
    assert not new
    assert second != first
    assert push.deleted == [first]  # the old token's endpoint would be orphaned
    assert [(d.endpoint_arn, d.registered_at) for d in delivery.list_devices(deliver, ada)] == [
        (second, registered_at)
    ]


def test_a_player_may_register_ten_devices_and_refresh_any_of_them_at_the_limit(
    deliver: Delivery, ada: PlayerRecord
) -> None:
    for n in range(10):
        register(deliver, ada, f"device-{n}")
    with pytest.raises(Conflict) as refused:
        register(deliver, ada, "one-more")
    assert refused.value.code == "too_many_devices"
    _, new = register(deliver, ada, "device-3", "a-new-token")
    assert not new
    assert len(delivery.list_devices(deliver, ada)) == 10


def test_the_device_limit_is_each_players_own(
    services: Services, deliver: Delivery, ada: PlayerRecord
) -> None:
    for n in range(10):
        register(deliver, ada, f"device-{n}")
    bob = accounts.register(services, "Bob")[0]
    assert register(deliver, bob, "phone")[1]


def test_a_push_token_that_changes_hands_leaves_its_previous_owners_devices(
    services: Services, deliver: Delivery, push: MemoryNotifier, ada: PlayerRecord
) -> None:
    bob = accounts.register(services, "Bob")[0]
    shared, _ = register(deliver, ada, "family-tablet", "tablet-token")
    register(deliver, ada, "phone", "ada-phone-token")
    theirs, _ = register(deliver, bob, "tablet", "tablet-token")
    assert theirs == shared  # one install, one endpoint
    assert [d.device_id for d in delivery.list_devices(deliver, ada)] == ["phone"]
    assert deliver.deliver(note(ada)) is Outcome.SENT
    assert shared not in {arn for arn, _ in push.pushed}


def test_a_platform_this_deployment_has_no_push_application_for_is_not_configured(
    services: Services, ada: PlayerRecord
) -> None:
    only_fcm = Delivery.of(replace(services, push=MemoryNotifier(platforms=[Platform.FCM])))
    with pytest.raises(NotConfigured):
        delivery.register_device(only_fcm, ada, "iphone", Platform.APNS, "apns-token")
    assert delivery.list_devices(only_fcm, ada) == []


def test_a_push_token_the_platform_refuses_is_invalid_input_and_registers_nothing(
    deliver: Delivery, push: MemoryNotifier, ada: PlayerRecord
) -> None:
    push.refused_tokens.add("garbage")
    with pytest.raises(InvalidInput) as refused:
        register(deliver, ada, "phone", "garbage")
    assert refused.value.code == "invalid_push_token"
    assert delivery.list_devices(deliver, ada) == []


def test_removing_a_device_deletes_its_endpoint_and_an_unknown_one_is_not_found(
    deliver: Delivery, push: MemoryNotifier, ada: PlayerRecord
) -> None:
    arn, _ = register(deliver, ada, "phone")
    register(deliver, ada, "tablet")
    delivery.remove_device(deliver, ada, "phone")
    assert [d.device_id for d in delivery.list_devices(deliver, ada)] == ["tablet"]
    assert push.deleted == [arn]
    with pytest.raises(NotFound):
        delivery.remove_device(deliver, ada, "phone")
