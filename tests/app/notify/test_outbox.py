"""The notification outbox: the pure decision, the queue per channel, and sends that go at least once and,
once sent, never again (the ledger), under failing and answer-losing providers."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app import bootstrap
from app.core.errors import StoreUnavailable
from app.core.settings import AppSettings
from app.games import play as games
from app.notify import holding
from app.notify.delivery import Delivery, NotQueued, Outcome, nudge_game, register_device
from app.notify.devices.channels import Platform
from app.notify.email.mail import DEDUPE_HEADER, Mail, MailOutcomeUnknown, MailUnavailable
from app.notify.messages import Kind, Notification, changes
from app.notify.outbox import OutboxMessage, messages_for, owed_channels
from app.notify.outbox_delivery import Finished, RetryLater, deliver
from app.notify.preferences import Channel, NotificationPreferences
from app.notify.web_push.browsers import WebPush
from app.services import Services
from app.webhooks import ssrf
from dixit.moves import GiveClue
from handlers import notify_delivery
from tests.api.client import FakeContext
from tests.fakes.mail import RecordingMailer
from tests.fakes.outbox import MemoryNotificationQueue
from tests.fakes.push import MemoryNotifier
from tests.fakes.web_push import RecordingWebPushSender
from tests.support.clock import Clock
from tests.support.outbox import drain
from tests.support.services import memory_services

from .email.test_channel import WEB, started, storyteller, your_turn
from .web_push.test_browsers import subscribe

SETTINGS = AppSettings(web_base_url=WEB, unsubscribe_secret="s3cret")


@pytest.fixture
def queue() -> MemoryNotificationQueue:
    return MemoryNotificationQueue()  # nothing is delivered until a test drains it


@pytest.fixture
def services(clock: Clock, queue: MemoryNotificationQueue) -> Services:
    return memory_services(clock=clock, settings=SETTINGS, notification_queue=queue)


def pending(queue: MemoryNotificationQueue, channel: Channel) -> list[OutboxMessage]:
    return [OutboxMessage.from_json(body) for c, body in queue.pending if c is channel]


# The pure decision


def test_each_owed_channel_gets_one_message_and_each_browser_its_own_with_stable_dedupe_ids() -> None:
    note = Notification(Kind.YOUR_TURN, "g_1", "p_1", occasion="7")
    everything = NotificationPreferences(time_zone="Europe/Paris")
    made = messages_for(
        note, everything, enqueued_at="2026-03-01T12:00:00", subscriptions=["laptop", "phone"]
    )
    assert [(m.channel, m.subscription_id) for m in made] == [
        (Channel.DEVICE_PUSH, None),
        (Channel.EMAIL, None),
        (Channel.WEB_PUSH, "laptop"),
        (Channel.WEB_PUSH, "phone"),
    ]
    assert [m.send_id for m in made] == [
        "g_1:p_1:7:your_turn:device_push",
        "g_1:p_1:7:your_turn:email",
        "g_1:p_1:7:your_turn:web_push:laptop",
        "g_1:p_1:7:your_turn:web_push:phone",
    ]
    assert all(m.time_zone == "Europe/Paris" for m in made)
    again = messages_for(
        note, everything, enqueued_at="2026-03-01T13:00:00", subscriptions=["laptop", "phone"]
    )
    assert [m.send_id for m in again] == [m.send_id for m in made]  # a replayed change: the same ids
    assert [OutboxMessage.from_json(m.to_json()) for m in made] == made


def test_a_timeout_goes_to_the_topic_and_devices_only_and_unwanted_channels_get_nothing() -> None:
    timeout = Notification(Kind.TIMEOUT, "g_1", "p_1", occasion="d")
    assert owed_channels(timeout, NotificationPreferences()) == (Channel.DEVICE_PUSH,)
    only_mail = NotificationPreferences(
        channels={Channel.EMAIL: frozenset({Kind.YOUR_TURN}), Channel.DEVICE_PUSH: frozenset()}
    )
    note = Notification(Kind.YOUR_TURN, "g_1", "p_1", occasion="7")
    (device, mail) = messages_for(note, only_mail, enqueued_at="t", subscriptions=["laptop"])
    assert device.channel is Channel.DEVICE_PUSH
    assert not device.to_devices  # the topic still hears of it; the player's devices do not
    assert mail.channel is Channel.EMAIL


# Nothing is sent inline


def test_delivery_only_queues_and_a_refused_enqueue_raises_for_the_callers_retry(
    services: Services, queue: MemoryNotificationQueue
) -> None:
    seats, state = started(services)
    teller = storyteller(seats, state)
    assert Delivery.of(services).deliver(your_turn(state, teller)) is Outcome.SENT
    push, mailer = services.push, services.mailer
    assert isinstance(push, MemoryNotifier)
    assert isinstance(mailer, RecordingMailer)
    assert push.published == []
    assert mailer.sent == []
    assert {c for c, _ in queue.pending} == {Channel.DEVICE_PUSH, Channel.EMAIL}
    queue.refuse.add(Channel.EMAIL)
    with pytest.raises(NotQueued):
        Delivery.of(services).deliver(your_turn(state, teller))


def test_a_passing_refusal_is_tried_again_at_once_and_a_lasting_one_is_a_503(
    services: Services, queue: MemoryNotificationQueue
) -> None:

    seats, state = started(services)
    teller = storyteller(seats, state)
    queue.refuse_calls = 2  # SQS throttles twice, then takes them
    assert Delivery.of(services).deliver(your_turn(state, teller)) is Outcome.SENT
    assert {c for c, _ in queue.pending} == {Channel.DEVICE_PUSH, Channel.EMAIL}
    queue.refuse_calls = 10
    with pytest.raises(StoreUnavailable):
        Delivery.of(services).deliver(your_turn(state, teller))


def test_a_channel_without_a_queue_is_refused_never_dropped(services: Services) -> None:

    seats, state = started(services)
    teller = storyteller(seats, state)
    mail_only = MemoryNotificationQueue(channels=(Channel.EMAIL,))  # a deployment missing two queues
    with pytest.raises(NotQueued):
        Delivery.of(replace(services, notification_queue=mail_only)).deliver(your_turn(state, teller))


# At least once, never twice once sent


def test_a_mail_service_failing_once_is_retried_and_the_mail_sent_once(
    services: Services, queue: MemoryNotificationQueue, monkeypatch: pytest.MonkeyPatch
) -> None:
    seats, state = started(services)
    teller = storyteller(seats, state)
    mailer = services.mailer
    assert isinstance(mailer, RecordingMailer)
    real, failures = mailer.send, [MailUnavailable()]

    def flaky(mail: Mail) -> None:
        if failures:
            raise failures.pop()
        real(mail)

    monkeypatch.setattr(mailer, "send", flaky)
    Delivery.of(services).deliver(your_turn(state, teller))
    (message,) = pending(queue, Channel.EMAIL)
    outcome = deliver(services, message, attempt=1)
    assert isinstance(outcome, RetryLater)  # given back: the queue retries after the backoff
    assert mailer.sent == []
    assert deliver(services, message, attempt=2) == Finished("sent")
    assert deliver(services, message, attempt=3) == Finished("deduplicated")  # a redelivery
    (mail,) = mailer.sent
    assert dict(mail.headers)[DEDUPE_HEADER] == message.send_id


def test_a_lost_answer_is_retried_only_once_the_claim_expires_and_carries_the_same_id(
    services: Services, queue: MemoryNotificationQueue, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    seats, state = started(services)
    teller = storyteller(seats, state)
    mailer = services.mailer
    assert isinstance(mailer, RecordingMailer)
    real, lost = mailer.send, [True]

    def answer_lost(mail: Mail) -> None:
        real(mail)  # it went out...
        if lost:
            lost.pop()
            raise MailOutcomeUnknown()  # ...but the answer never came back

    monkeypatch.setattr(mailer, "send", answer_lost)
    Delivery.of(services).deliver(your_turn(state, teller))
    (message,) = pending(queue, Channel.EMAIL)
    first = deliver(services, message, attempt=1)
    assert isinstance(first, RetryLater)
    assert first.delay_seconds >= SETTINGS.notify_claim_seconds  # not before the claim expires
    early = deliver(services, message, attempt=2)
    assert isinstance(early, RetryLater)
    assert len(mailer.sent) == 1  # an early redelivery found the claim held: no repeat
    clock.advance(seconds=SETTINGS.notify_claim_seconds)
    assert deliver(services, message, attempt=3) == Finished("sent")
    assert len(mailer.sent) == 2  # at most one duplicate for one lost answer...
    assert {dict(m.headers)[DEDUPE_HEADER] for m in mailer.sent} == {message.send_id}  # ...foldable
    assert deliver(services, message, attempt=4) == Finished("deduplicated")


def test_a_failing_channel_never_resends_another_channels_message(
    services: Services, queue: MemoryNotificationQueue, monkeypatch: pytest.MonkeyPatch
) -> None:
    seats, state = started(services)
    teller = storyteller(seats, state)
    push = services.push
    assert isinstance(push, MemoryNotifier)

    def down(mail: Mail) -> None:
        raise MailUnavailable()

    monkeypatch.setattr(services.mailer, "send", down)
    Delivery.of(services).deliver(your_turn(state, teller))
    assert drain(queue, services) == ["sent", "retry"]  # device push and topic; the mail waits
    assert len(push.published) == 1
    for attempt in (2, 3):
        assert drain(queue, services, attempt=attempt) == ["retry"]
    assert len(push.published) == 1  # the mail's retries publish nothing again
    Delivery.of(services).deliver(your_turn(state, teller))  # the stream record replayed
    # The old and the new mail still wait; the device push (and the topic) is not sent again.
    assert sorted(drain(queue, services)) == ["deduplicated", "retry", "retry"]
    assert len(push.published) == 1


def test_a_message_failing_past_the_retry_window_is_dead_lettered(
    services: Services, queue: MemoryNotificationQueue, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    seats, state = started(services)
    teller = storyteller(seats, state)

    def down(mail: Mail) -> None:
        raise MailUnavailable()

    monkeypatch.setattr(services.mailer, "send", down)
    Delivery.of(services).deliver(your_turn(state, teller))
    (message,) = pending(queue, Channel.EMAIL)
    clock.advance(seconds=SETTINGS.notify_retry_for_seconds)
    assert deliver(services, message, attempt=30) == Finished("dead_lettered")
    ((channel, body, reason),) = queue.dead
    assert channel is Channel.EMAIL
    assert OutboxMessage.from_json(body) == message
    assert reason.startswith("gave up after 30 attempts")


# The queue's function


def test_the_function_reports_only_the_failed_message_for_a_retry(
    services: Services, queue: MemoryNotificationQueue, monkeypatch: pytest.MonkeyPatch
) -> None:

    seats, state = started(services)
    teller = storyteller(seats, state)

    def down(mail: Mail) -> None:
        raise MailUnavailable()

    monkeypatch.setattr(services.mailer, "send", down)
    monkeypatch.setattr(bootstrap, "services", lambda *args, **kwargs: services)
    Delivery.of(services).deliver(your_turn(state, teller))
    records = [_record(str(n), channel, body) for n, (channel, body) in enumerate(queue.take())]
    records.append(_record("bad", Channel.EMAIL, "{not json"))
    answer = notify_delivery.lambda_handler({"Records": records}, FakeContext())
    failed = [f["itemIdentifier"] for f in answer["batchItemFailures"]]
    email_ids = [r["messageId"] for r in records if '"channel":"email"' in r["body"]]
    assert failed == email_ids  # the device push went; the malformed one is dropped, not retried
    ((channel, receipt, delay),) = queue.delayed
    assert channel is Channel.EMAIL
    assert receipt == f"receipt-{email_ids[0]}"
    assert delay >= 1


def _record(message_id: str, channel: Channel, body: str) -> dict[str, Any]:
    return {
        "messageId": message_id,
        "receiptHandle": f"receipt-{message_id}",
        "body": body,
        "attributes": {"ApproximateReceiveCount": "1", "SentTimestamp": "0"},
        "messageAttributes": {},
        "md5OfBody": "",
        "eventSource": "aws:sqs",
        "eventSourceARN": f"arn:aws:sqs:us-east-1:123456789012:{channel.value}",
        "awsRegion": "us-east-1",
    }


# Held messages


def test_a_held_message_is_deleted_only_once_queued_and_a_failed_release_is_tried_again(
    services: Services, queue: MemoryNotificationQueue, clock: Clock
) -> None:
    seats, state = started(services)
    teller = storyteller(seats, state)
    note = your_turn(state, teller)
    services.notifications.hold(note, release_at=services.now_epoch())
    delivery = Delivery.of(services)
    queue.refuse.add(Channel.EMAIL)  # SQS is down for the first release
    report = holding.release(
        services, delivery, services.now_epoch(), remaining_ms=lambda: 10**9, reserve_ms=0
    )
    assert report.released == 0
    page, _ = services.notifications.held_page(
        holding.shard_of(teller.player_id), services.now_epoch(), limit=5
    )
    assert [h.notification for h in page] == [note]  # still held
    queue.refuse.clear()
    report = holding.release(
        services, delivery, services.now_epoch(), remaining_ms=lambda: 10**9, reserve_ms=0
    )
    assert report.released == 1
    page, _ = services.notifications.held_page(
        holding.shard_of(teller.player_id), services.now_epoch(), limit=5
    )
    assert page == []
    assert {c for c, _ in queue.pending} >= {Channel.EMAIL}
    assert drain(queue, services).count("sent") >= 1
    mailer = services.mailer
    assert isinstance(mailer, RecordingMailer)
    assert len(mailer.sent) == 1
    assert dict(mailer.sent[0].headers)[DEDUPE_HEADER] == f"{note.dedupe_id}:email"


# Messages a player can tell apart


def test_the_push_and_the_mail_name_the_game_the_move_and_the_clue(
    services: Services, queue: MemoryNotificationQueue, monkeypatch: pytest.MonkeyPatch
) -> None:

    monkeypatch.setattr(ssrf, "system_resolver", lambda host, port: ["93.184.215.14"])

    seats, state = started(services)
    teller = storyteller(seats, state)
    card = state.hands[teller.player_id][0]
    clued = games.play(services, teller, state.game_id, GiveClue(teller.player_id, card, "a quiet “storm”"))
    assert clued.record is not None
    (other, *_) = [p for p in seats if p.player_id != teller.player_id]

    subscribe(WebPush.of(services), other, "laptop")

    register_device(Delivery.of(services), other, "phone", Platform.FCM, "token-phone")
    owed = [n for n in changes(state, clued.record.state) if n.player_id == other.player_id]
    Delivery.of(services).deliver_all(owed)
    drain(queue, services)
    sender = services.web_push
    assert isinstance(sender, RecordingWebPushSender)
    ((_, payload, _, _),) = sender.sent
    names = [f"“{p.name}”" for p in seats if p.player_id != other.player_id]
    assert (
        payload["body"]
        == f"Your turn: play a card on the clue “a quiet “storm”” (with {names[0]} and {names[1]})"
    )
    assert payload["tag"] == f"dixit-game-{state.game_id}"
    push = services.push
    assert isinstance(push, MemoryNotifier)
    assert push.texts == [payload["body"]]  # the phone says the same
    mailer = services.mailer
    assert isinstance(mailer, RecordingMailer)
    (mail,) = mailer.to(other.email)
    assert mail.subject.startswith("Your turn in Dixit: play a card on the clue “a quiet “storm””")


# Whether a nudge reaches anyone (what the queued outbox can no longer say by sending)


def test_a_nudge_says_who_has_no_channel_to_hear_it_on(
    services: Services, queue: MemoryNotificationQueue, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ssrf, "system_resolver", lambda host, port: ["93.184.215.14"])
    seats, state = started(services)
    teller = storyteller(seats, state)
    nudger = next(p for p in seats if p is not teller)
    mailer = services.mailer
    assert isinstance(mailer, RecordingMailer)
    mailer.suppressed.add(teller.email)  # their address bounced: mail does not reach them...
    services.mail_ledger.suppress_address(teller.email, reason="BOUNCE", at="2026-03-01T12:00:00Z")
    assert nudge_game(Delivery.of(services), nudger, state).unreachable == (teller.player_id,)
    subscribe(WebPush.of(services), teller, "laptop")  # ...a browser of theirs does
    clock.advance(minutes=61)  # past the once-an-hour limit
    assert nudge_game(Delivery.of(services), nudger, state).unreachable == ()
    assert WebPush.of(services).reaches(your_turn(state, teller))
    assert not WebPush.of(services).reaches(Notification(Kind.TIMEOUT, state.game_id, teller.player_id, "d"))
