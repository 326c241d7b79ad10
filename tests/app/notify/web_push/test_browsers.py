"""app.notify.web_push.browsers: storing browsers' subscriptions, what a push carries and where it goes."""

from __future__ import annotations

import base64
import os
from collections.abc import Sequence

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from app.core.errors import Conflict, InvalidInput, NotConfigured, NotFound
from app.core.records import PlayerRecord
from app.notify import delivery
from app.notify.delivery import Delivery
from app.notify.messages import Kind, Notification
from app.notify.outbox import OutboxMessage
from app.notify.preferences import Channel
from app.notify.web_push.browsers import MAX_SUBSCRIPTIONS, WebPush, topic_of
from app.notify.web_push.ports import PushAttempt, PushResult
from app.players import accounts
from app.services import Services
from app.webhooks import ssrf
from tests.fakes.outbox import MemoryNotificationQueue
from tests.fakes.web_push import RecordingWebPushSender
from tests.support.clock import START
from tests.support.outbox import drain

ENDPOINT = "https://push.example.com/send/abc"
GAME = "g_0000000000000001"


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def browser_keys() -> tuple[str, str]:
    point = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    return b64(point), b64(os.urandom(16))


@pytest.fixture(autouse=True)
def public_dns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every host resolves to a public address, except those named `internal`."""

    def resolve(host: str, port: int) -> Sequence[str]:
        if host[0].isdigit():
            return [host]
        return ["10.0.0.5"] if "internal" in host else ["93.184.215.14"]

    monkeypatch.setattr(ssrf, "system_resolver", resolve)


@pytest.fixture
def web_push(services: Services) -> WebPush:
    return WebPush.of(services)


@pytest.fixture
def sender(services: Services) -> RecordingWebPushSender:
    assert isinstance(services.web_push, RecordingWebPushSender)
    return services.web_push


@pytest.fixture
def ada(services: Services) -> PlayerRecord:
    return accounts.register(services, "Ada")[0]


def subscribe(
    web_push: WebPush, player: PlayerRecord, sid: str = "browser-1", endpoint: str = ENDPOINT
) -> bool:
    p256dh, auth = browser_keys()
    return web_push.subscribe(
        player, sid, endpoint=endpoint, p256dh=p256dh, auth=auth, expiration_time=None, now=START
    )[1]


def note(player: PlayerRecord, kind: Kind = Kind.YOUR_TURN) -> Notification:
    return Notification(kind, GAME, player.player_id, occasion="7")


def test_a_subscription_is_stored_once_and_replaced_under_the_same_id(
    web_push: WebPush, ada: PlayerRecord
) -> None:
    assert subscribe(web_push, ada)
    assert not subscribe(web_push, ada, endpoint="https://push.example.com/send/def")
    (stored,) = web_push.subscriptions(ada)
    assert stored.endpoint == "https://push.example.com/send/def"
    assert stored.created_at == START.isoformat(timespec="seconds")


def test_the_same_browser_subscribing_under_a_new_id_replaces_its_old_subscription(
    web_push: WebPush, ada: PlayerRecord
) -> None:
    subscribe(web_push, ada, "old")
    subscribe(web_push, ada, "new")
    assert [s.subscription_id for s in web_push.subscriptions(ada)] == ["new"]


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://push.example.com/send/abc",
        "https://push.internal.example/send/abc",
        "https://127.0.0.1/send/abc",
        "https://169.254.169.254/latest",
        "https://user:pw@push.example.com/x",
    ],
)
def test_an_endpoint_we_would_not_call_is_refused(
    web_push: WebPush, ada: PlayerRecord, endpoint: str
) -> None:
    with pytest.raises(InvalidInput) as refused:
        subscribe(web_push, ada, endpoint=endpoint)
    assert refused.value.code == "invalid_push_endpoint"
    assert web_push.subscriptions(ada) == []


def test_plain_http_to_loopback_is_allowed_only_where_the_local_stack_allows_it(
    web_push: WebPush, ada: PlayerRecord
) -> None:
    local = "http://127.0.0.1:3000/_local/push/endpoints/x"
    with pytest.raises(InvalidInput):
        subscribe(web_push, ada, endpoint=local)
    web_push.allow_loopback_http = True
    assert subscribe(web_push, ada, endpoint=local)


@pytest.mark.parametrize(
    ("p256dh", "auth"),
    [
        (b64(b"\x04" + bytes(63)), b64(bytes(16))),  # a point one byte short
        (b64(b"\x02" + bytes(64)), b64(bytes(16))),  # not uncompressed
        (b64(b"\x04" + bytes(64)), b64(bytes(15))),  # an auth secret one byte short
        (b64(b"\x04" + bytes(64)), "not base64url!"),
        ("", b64(bytes(16))),
    ],
)
def test_keys_of_the_wrong_form_or_length_are_refused(
    web_push: WebPush, ada: PlayerRecord, p256dh: str, auth: str
) -> None:
    with pytest.raises(InvalidInput) as refused:
        web_push.subscribe(
            ada, "b", endpoint=ENDPOINT, p256dh=p256dh, auth=auth, expiration_time=None, now=START
        )
    assert refused.value.code == "invalid_push_keys"


def test_a_player_keeps_at_most_the_cap_of_subscriptions_but_may_replace_one(
    web_push: WebPush, ada: PlayerRecord
) -> None:
    for n in range(MAX_SUBSCRIPTIONS):
        subscribe(web_push, ada, f"b{n}", endpoint=f"{ENDPOINT}/{n}")
    with pytest.raises(Conflict) as refused:
        subscribe(web_push, ada, "one-more", endpoint=f"{ENDPOINT}/x")
    assert refused.value.code == "too_many_web_push_subscriptions"
    assert not subscribe(web_push, ada, "b0", endpoint=f"{ENDPOINT}/0b")


def test_without_a_vapid_key_web_push_is_not_configured(
    web_push: WebPush, sender: RecordingWebPushSender, ada: PlayerRecord
) -> None:
    sender.public = None
    with pytest.raises(NotConfigured) as refused:
        web_push.public_key()
    assert refused.value.code == "web_push_not_configured"
    with pytest.raises(NotConfigured):
        subscribe(web_push, ada)


def test_forgetting_a_subscription_twice_is_not_found_the_second_time(
    web_push: WebPush, ada: PlayerRecord
) -> None:
    subscribe(web_push, ada)
    web_push.unsubscribe(ada, "browser-1")
    with pytest.raises(NotFound) as missing:
        web_push.unsubscribe(ada, "browser-1")
    assert missing.value.code == "web_push_subscription_not_found"


# Sending


def test_your_turn_goes_to_every_browser_with_a_title_a_body_and_the_games_page(
    services: Services, web_push: WebPush, sender: RecordingWebPushSender, ada: PlayerRecord
) -> None:
    subscribe(web_push, ada, "laptop", endpoint=f"{ENDPOINT}/1")
    subscribe(web_push, ada, "phone", endpoint=f"{ENDPOINT}/2")
    Delivery.of(services).deliver(note(ada))
    assert [endpoint for endpoint, *_ in sender.sent] == [f"{ENDPOINT}/1", f"{ENDPOINT}/2"]
    _, payload, ttl, topic = sender.sent[0]
    assert payload["url"] == f"/play/{GAME}"
    assert payload["title"] == "Your turn in Dixit"
    assert payload["body"] == "It's your turn in Dixit."  # no game to name: g_…01 was never created
    # One notification per game: a newer one replaces the older; the dedupe id tells repeats apart.
    assert payload["tag"] == f"dixit-game-{GAME}"
    assert payload["dedupe_id"] == f"{note(ada).dedupe_id}:web_push:laptop"
    assert ttl == 86_400
    assert topic == topic_of(note(ada))
    assert len(topic) == 32
    assert GAME not in topic


@pytest.mark.parametrize("kind", [Kind.REMINDER, Kind.GAME_OVER])
def test_reminders_and_results_are_pushed_too(
    services: Services, web_push: WebPush, sender: RecordingWebPushSender, ada: PlayerRecord, kind: Kind
) -> None:
    subscribe(web_push, ada)
    Delivery.of(services).deliver(note(ada, kind))
    assert [payload["kind"] for _, payload, *_ in sender.sent] == [kind.value]


def test_a_timeout_is_not_pushed_to_browsers(
    services: Services, web_push: WebPush, sender: RecordingWebPushSender, ada: PlayerRecord
) -> None:
    subscribe(web_push, ada)
    Delivery.of(services).deliver(note(ada, Kind.TIMEOUT))
    assert sender.sent == []


def test_a_muted_player_gets_no_web_push(
    services: Services, web_push: WebPush, sender: RecordingWebPushSender, ada: PlayerRecord
) -> None:
    subscribe(web_push, ada)
    deliver = Delivery.of(services)
    delivery.set_muted(deliver, ada, True)
    deliver.deliver(note(ada))
    assert sender.sent == []


def queue_of(services: Services) -> MemoryNotificationQueue:
    assert isinstance(services.notification_queue, MemoryNotificationQueue)
    return services.notification_queue


@pytest.mark.parametrize("status", ["404", "410"])
def test_a_subscription_the_push_service_no_longer_knows_is_removed(
    services: Services, web_push: WebPush, sender: RecordingWebPushSender, ada: PlayerRecord, status: str
) -> None:
    subscribe(web_push, ada, "gone", endpoint=f"{ENDPOINT}/gone")
    subscribe(web_push, ada, "live", endpoint=f"{ENDPOINT}/live")
    sender.answers[f"{ENDPOINT}/gone"] = PushAttempt(PushResult.GONE, status)
    Delivery.of(services).deliver(note(ada))
    assert [endpoint for endpoint, *_ in sender.sent] == [f"{ENDPOINT}/live"]
    assert [s.subscription_id for s in web_push.subscriptions(ada)] == ["live"]
    assert queue_of(services).pending == []  # nothing to retry


def test_a_failing_push_service_is_retried_alone_and_keeps_the_subscription(
    services: Services, web_push: WebPush, sender: RecordingWebPushSender, ada: PlayerRecord
) -> None:
    subscribe(web_push, ada, "a", endpoint=f"{ENDPOINT}/a")
    subscribe(web_push, ada, "b", endpoint=f"{ENDPOINT}/b")
    sender.answers[f"{ENDPOINT}/a"] = PushAttempt(PushResult.FAILED, "503")
    Delivery.of(services).deliver(note(ada))
    assert [endpoint for endpoint, *_ in sender.sent] == [f"{ENDPOINT}/b"]
    queue = queue_of(services)
    (waiting,) = [body for channel, body in queue.pending if channel is Channel.WEB_PUSH]
    assert OutboxMessage.from_json(waiting).subscription_id == "a"
    assert len(web_push.subscriptions(ada)) == 2
    del sender.answers[f"{ENDPOINT}/a"]  # the push service is back
    assert drain(queue, services, attempt=2) == ["sent"]
    assert [endpoint for endpoint, *_ in sender.sent] == [f"{ENDPOINT}/b", f"{ENDPOINT}/a"]


def test_a_refused_endpoint_is_not_retried(
    services: Services, web_push: WebPush, sender: RecordingWebPushSender, ada: PlayerRecord
) -> None:
    subscribe(web_push, ada)
    sender.answers[ENDPOINT] = PushAttempt(PushResult.REFUSED, "webhook_url_forbidden_address")
    Delivery.of(services).deliver(note(ada))
    assert queue_of(services).pending == []
    assert len(web_push.subscriptions(ada)) == 1


def test_a_sender_that_raises_costs_that_browser_only(
    services: Services,
    web_push: WebPush,
    sender: RecordingWebPushSender,
    ada: PlayerRecord,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    subscribe(web_push, ada, "a", endpoint=f"{ENDPOINT}/a")
    subscribe(web_push, ada, "b", endpoint=f"{ENDPOINT}/b")
    real = sender.send

    def flaky(subscription, payload, *, ttl, topic):  # type: ignore[no-untyped-def]
        if subscription.subscription_id == "a":
            raise ValueError("bad keys")
        return real(subscription, payload, ttl=ttl, topic=topic)

    monkeypatch.setattr(sender, "send", flaky)
    Delivery.of(services).deliver(note(ada))
    assert [endpoint for endpoint, *_ in sender.sent] == [f"{ENDPOINT}/b"]
    assert len(web_push.subscriptions(ada)) == 2


def test_an_endpoint_that_keeps_timing_out_is_disabled_and_its_owner_can_see_it(
    services: Services, web_push: WebPush, sender: RecordingWebPushSender, ada: PlayerRecord
) -> None:
    subscribe(web_push, ada, "slow", endpoint=f"{ENDPOINT}/slow")
    sender.answers[f"{ENDPOINT}/slow"] = PushAttempt(PushResult.FAILED, "timeout")
    deliver = Delivery.of(services)
    for occasion in range(services.settings.web_push_disable_after_failures):
        deliver.deliver(Notification(Kind.YOUR_TURN, GAME, ada.player_id, occasion=str(occasion)))
    (slow,) = web_push.subscriptions(ada)
    assert slow.disabled_at is not None
    assert slow.failures == services.settings.web_push_disable_after_failures
    assert str(slow.last_failure).endswith("timeout")
    queue = queue_of(services)
    queue.pending.clear()
    deliver.deliver(Notification(Kind.YOUR_TURN, GAME, ada.player_id, occasion="later"))
    assert [c for c, _ in queue.enqueued[-2:]] == [Channel.DEVICE_PUSH, Channel.EMAIL]  # none for it
    subscribe(web_push, ada, "slow", endpoint=f"{ENDPOINT}/slow")  # subscribing again re-enables it
    assert web_push.subscriptions(ada)[0].disabled_at is None


def test_a_subscription_past_its_expiration_time_is_removed_without_a_push(
    services: Services, web_push: WebPush, sender: RecordingWebPushSender, ada: PlayerRecord
) -> None:
    p256dh, auth = browser_keys()
    now_ms = int(START.timestamp() * 1000)
    for sid, expires in (("stale", now_ms), ("fresh", now_ms + 60_000)):
        web_push.subscribe(
            ada,
            sid,
            endpoint=f"{ENDPOINT}/{sid}",
            p256dh=p256dh,
            auth=auth,
            expiration_time=expires,
            now=START,
        )
    Delivery.of(services).deliver(note(ada))
    assert [endpoint for endpoint, *_ in sender.sent] == [f"{ENDPOINT}/fresh"]
    assert [s.subscription_id for s in web_push.subscriptions(ada)] == ["fresh"]


def test_a_push_endpoint_on_the_local_stacks_own_ports_is_refused_but_its_receiver_is_not(
    services: Services, ada: PlayerRecord
) -> None:
    from dataclasses import replace

    settings = replace(
        services.settings, webhook_allow_loopback_http=True, webhook_refused_loopback_ports="4566,3000"
    )
    local = WebPush.of(replace(services, settings=settings))
    with pytest.raises(InvalidInput):
        subscribe(local, ada, endpoint="http://127.0.0.1:4566/moto-api/reset")
    with pytest.raises(InvalidInput):
        subscribe(local, ada, endpoint="http://127.0.0.1:3000/players/me")
    assert subscribe(local, ada, endpoint="http://127.0.0.1:3000/_local/push/endpoints/sub-1")
    assert subscribe(local, ada, "other", endpoint="http://127.0.0.1:9999/receiver")


def test_web_push_reaches_a_player_only_once_a_browser_of_theirs_subscribed(
    web_push: WebPush, ada: PlayerRecord
) -> None:
    assert not web_push.reaches(note(ada))
    subscribe(web_push, ada)
    assert web_push.reaches(note(ada))
