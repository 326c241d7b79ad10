"""The outbox under faults at its ports: 30 % of mail, web push, topic and device sends fail, or go out
and lose their answer. Every owed send arrives at least once; a repeat only where an answer was lost."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from app.core.settings import AppSettings
from app.notify.delivery import Delivery, register_device
from app.notify.devices.channels import Platform
from app.notify.email.mail import DEDUPE_HEADER, Mail, MailOutcomeUnknown, MailUnavailable
from app.notify.messages import Kind, Notification
from app.notify.web_push.browsers import WebPush
from app.notify.web_push.ports import PushAttempt, PushResult, WebPushSubscription
from app.services import Services
from app.webhooks import ssrf
from tests.fakes.mail import RecordingMailer
from tests.fakes.outbox import MemoryNotificationQueue
from tests.fakes.push import MemoryNotifier
from tests.fakes.web_push import RecordingWebPushSender
from tests.support.clock import Clock
from tests.support.outbox import drain
from tests.support.services import memory_services

from .email.test_channel import WEB, started, storyteller, your_turn
from .web_push.test_browsers import subscribe

FAULT_RATE = 0.3


class Faults:
    """Per channel: how many sends failed outright, and how many went out and lost their answer."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.failed: Counter[str] = Counter()
        self.lost: Counter[str] = Counter()

    def roll(self, channel: str) -> str:
        """ "ok", "fail" (nothing sent) or "lose" (sent, the answer lost)."""
        if self.rng.random() >= FAULT_RATE:
            return "ok"
        fault = self.rng.choice(["fail", "lose"])
        (self.failed if fault == "fail" else self.lost)[channel] += 1
        return fault


@pytest.fixture(params=[1, 2, 3, 4, 5])
def faults(request: pytest.FixtureRequest) -> Faults:
    return Faults(request.param)


@pytest.fixture
def services(clock: Clock) -> Services:
    settings = AppSettings(web_base_url=WEB, unsubscribe_secret="s3cret")
    return memory_services(clock=clock, settings=settings, notification_queue=MemoryNotificationQueue())


def faulty(services: Services, faults: Faults, monkeypatch: pytest.MonkeyPatch) -> None:
    mailer, sender, notifier = services.mailer, services.web_push, services.push
    assert isinstance(mailer, RecordingMailer)
    assert isinstance(sender, RecordingWebPushSender)
    assert isinstance(notifier, MemoryNotifier)
    send_mail, send_push, publish, push = mailer.send, sender.send, notifier.publish, notifier.push

    def mail(message: Mail) -> None:
        fault = faults.roll("email")
        if fault == "fail":
            raise MailUnavailable()
        send_mail(message)
        if fault == "lose":
            raise MailOutcomeUnknown()

    def web(subscription: WebPushSubscription, payload: bytes, *, ttl: int, topic: str) -> PushAttempt:
        fault = faults.roll("web_push")
        if fault == "fail":
            return PushAttempt(PushResult.FAILED, "503")
        send_push(subscription, payload, ttl=ttl, topic=topic)
        return PushAttempt(PushResult.FAILED, "timeout") if fault == "lose" else PushAttempt(PushResult.SENT)

    def topic(notification: Notification) -> bool:
        fault = faults.roll("topic")
        if fault == "fail":
            raise RuntimeError("SNS throttled")
        publish(notification)
        if fault == "lose":
            raise TimeoutError("SNS answer lost")
        return True

    def device(arn: str, platform: Platform, notification: Notification, text: str | None = None) -> bool:
        fault = faults.roll("device_push")
        if fault == "fail":
            raise RuntimeError("SNS throttled")
        sent = push(arn, platform, notification, text)
        if fault == "lose":
            raise TimeoutError("SNS answer lost")
        return sent

    monkeypatch.setattr(mailer, "send", mail)
    monkeypatch.setattr(sender, "send", web)
    monkeypatch.setattr(notifier, "publish", topic)
    monkeypatch.setattr(notifier, "push", device)


def test_every_owed_send_arrives_at_least_once_and_repeats_only_after_a_lost_answer(
    services: Services, clock: Clock, faults: Faults, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ssrf, "system_resolver", lambda host, port: ["93.184.215.14"])
    seats, state = started(services)
    teller = storyteller(seats, state)
    delivery = Delivery.of(services)
    for seat in seats:
        subscribe(WebPush.of(services), seat, "laptop", endpoint=f"https://push.example.com/{seat.player_id}")
        register_device(delivery, seat, "phone", Platform.FCM, f"token-{seat.player_id}")
    owed = [your_turn(state, teller)] + [
        Notification(Kind.TIMEOUT, state.game_id, seat.player_id, occasion=f"d{n}")
        for seat in seats
        for n in range(3)
    ]
    faulty(services, faults, monkeypatch)
    for notification in owed:
        delivery.deliver(notification)
    queue = services.notification_queue
    assert isinstance(queue, MemoryNotificationQueue)
    for attempt in range(1, 40):
        if not queue.pending:
            break
        drain(queue, services, attempt=attempt)
        clock.advance(seconds=services.settings.notify_claim_seconds)  # every claim expires meanwhile
    assert queue.pending == []
    assert queue.dead == []
    assert faults.failed.total() > 0  # the seed did fail sends...
    assert faults.lost.total() > 0  # ...and lose answers
    mailer, sender, notifier = services.mailer, services.web_push, services.push
    assert isinstance(mailer, RecordingMailer)
    assert isinstance(sender, RecordingWebPushSender)
    assert isinstance(notifier, MemoryNotifier)

    def at_least_once_and_repeats(sent: Counter[Any], expected: set[Any], channel: str) -> None:
        assert set(sent) == expected, channel
        assert sum(sent.values()) - len(expected) <= faults.lost[channel], channel

    at_least_once_and_repeats(
        Counter(dict(m.headers)[DEDUPE_HEADER] for m in mailer.sent), {f"{owed[0].dedupe_id}:email"}, "email"
    )
    at_least_once_and_repeats(
        Counter(p["dedupe_id"] for _, p, _, _ in sender.sent),
        {f"{owed[0].dedupe_id}:web_push:laptop"},  # a timeout goes to no browser
        "web_push",
    )
    at_least_once_and_repeats(
        Counter(n.dedupe_id for n in notifier.published), {n.dedupe_id for n in owed}, "topic"
    )
    at_least_once_and_repeats(
        Counter((arn, n.dedupe_id) for arn, n in notifier.pushed),
        {(arn, n.dedupe_id) for n in owed for arn in _endpoints(services, n.player_id)},
        "device_push",
    )


def _endpoints(services: Services, player_id: str) -> list[str]:
    return [device.endpoint_arn for device in services.notifications.devices(player_id)]
