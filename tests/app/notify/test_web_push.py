"""app.notify.web_push: storing browsers' subscriptions, and what a push carries and where it goes."""

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
from app.notify.web_push import MAX_SUBSCRIPTIONS, WebPush, topic_of
from app.notify.web_push_ports import PushAttempt, PushResult
from app.players import accounts
from app.services import Services
from app.webhooks import ssrf
from tests.fakes.web_push import RecordingWebPushSender
from tests.support.clock import START

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
    assert payload["body"] == "It's your turn in Dixit."
    assert payload["tag"] == note(ada).dedupe_id
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


@pytest.mark.parametrize("status", ["404", "410"])
def test_a_subscription_the_push_service_no_longer_knows_is_removed(
    services: Services, web_push: WebPush, sender: RecordingWebPushSender, ada: PlayerRecord, status: str
) -> None:
    subscribe(web_push, ada, "gone", endpoint=f"{ENDPOINT}/gone")
    subscribe(web_push, ada, "live", endpoint=f"{ENDPOINT}/live")
    sender.answers[f"{ENDPOINT}/gone"] = PushAttempt(PushResult.GONE, status)
    assert web_push.push(note(ada)) == 1
    assert [s.subscription_id for s in web_push.subscriptions(ada)] == ["live"]


@pytest.mark.parametrize("result", [PushResult.FAILED, PushResult.REFUSED])
def test_any_other_failure_keeps_the_subscription(
    web_push: WebPush, sender: RecordingWebPushSender, ada: PlayerRecord, result: PushResult
) -> None:
    subscribe(web_push, ada)
    sender.answers[ENDPOINT] = PushAttempt(result, "500")
    assert web_push.push(note(ada)) == 0
    assert len(web_push.subscriptions(ada)) == 1


def test_a_sender_that_raises_costs_that_browser_only(
    web_push: WebPush, sender: RecordingWebPushSender, ada: PlayerRecord, monkeypatch: pytest.MonkeyPatch
) -> None:
    subscribe(web_push, ada, "a", endpoint=f"{ENDPOINT}/a")
    subscribe(web_push, ada, "b", endpoint=f"{ENDPOINT}/b")
    real = sender.send

    def flaky(subscription, payload, *, ttl, topic):  # type: ignore[no-untyped-def]
        if subscription.subscription_id == "a":
            raise ValueError("bad keys")
        return real(subscription, payload, ttl=ttl, topic=topic)

    monkeypatch.setattr(sender, "send", flaky)
    assert web_push.push(note(ada)) == 1
    assert len(web_push.subscriptions(ada)) == 2


def test_as_a_channel_it_fails_only_when_no_browser_took_the_message(
    web_push: WebPush, sender: RecordingWebPushSender, ada: PlayerRecord
) -> None:
    from app.notify.web_push import WebPushUndelivered

    web_push.send(note(ada))  # no browser at all: nothing failed
    subscribe(web_push, ada, "a", endpoint=f"{ENDPOINT}/a")
    subscribe(web_push, ada, "b", endpoint=f"{ENDPOINT}/b")
    sender.answers[f"{ENDPOINT}/a"] = PushAttempt(PushResult.FAILED, "500")
    web_push.send(note(ada))  # b took it
    sender.answers[f"{ENDPOINT}/b"] = PushAttempt(PushResult.GONE, "410")
    with pytest.raises(WebPushUndelivered):
        web_push.send(note(ada))  # a failed, b is gone
    assert [s.subscription_id for s in web_push.subscriptions(ada)] == ["a"]


def test_a_subscription_past_its_expiration_time_is_removed_without_a_push(
    web_push: WebPush, sender: RecordingWebPushSender, ada: PlayerRecord
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
    web_push.clock = lambda: START
    assert web_push.push(note(ada)) == 1
    assert [endpoint for endpoint, *_ in sender.sent] == [f"{ENDPOINT}/fresh"]
    assert [s.subscription_id for s in web_push.subscriptions(ada)] == ["fresh"]


def test_web_push_reaches_a_player_only_once_a_browser_of_theirs_subscribed(
    web_push: WebPush, ada: PlayerRecord
) -> None:
    assert not web_push.reaches(note(ada))
    subscribe(web_push, ada)
    assert web_push.reaches(note(ada))
