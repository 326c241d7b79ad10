"""The local push service decrypts what the product's sender encrypts: RFC 8291 and VAPID, end to end.

The sender (`app.aws.web_push.PywebpushSender`: pywebpush's encryption, py_vapid's signature, a POST to
the vetted address) talks over loopback HTTP to a `PushReceiver` behind the local gateway's server.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from app.aws.web_push import PywebpushSender
from app.notify.messages import Kind, Notification
from app.notify.web_push.browsers import payload_of, topic_of
from app.notify.web_push.ports import PushResult, WebPushSubscription
from local_stack.gateway import Gateway
from local_stack.push import PUSH_PATH, PushReceiver, generate_vapid_key, verify_vapid
from local_stack.server import GatewayServer

NOTE = Notification(Kind.YOUR_TURN, "g_0000000000000001", "p_ada", occasion="7")


@pytest.fixture
def receiver() -> Iterator[PushReceiver]:
    receiver = PushReceiver()
    server = GatewayServer(Gateway([], {}, local_apps={PUSH_PATH: receiver.handle}), "127.0.0.1", 0).start()
    receiver.base_url = server.url
    yield receiver
    server.stop()


def sender(key: str) -> PywebpushSender:
    return PywebpushSender(lambda: key, "mailto:dixit@localhost.test", allow_loopback_http=True)


def subscription_of(made: dict[str, object]) -> WebPushSubscription:
    keys = made["keys"]
    assert isinstance(keys, dict)
    return WebPushSubscription(
        str(made["id"]),
        str(made["endpoint"]),
        keys["p256dh"],
        keys["auth"],
        None,
        "2026-03-01T12:00:00+00:00",
    )


def test_a_push_arrives_decrypted_with_its_headers_and_the_vapid_claims(receiver: PushReceiver) -> None:
    push = sender(generate_vapid_key())
    made = receiver.subscribe(push.public_key())
    attempt = push.send(subscription_of(made), payload_of(NOTE), ttl=600, topic=topic_of(NOTE))
    assert attempt.result is PushResult.SENT
    assert attempt.status == "201"
    (message,) = receiver.messages()
    assert message["payload"] == json.loads(payload_of(NOTE))
    assert message["payload"]["url"] == "/play/g_0000000000000001"
    assert message["ttl"] == 600
    assert message["topic"] == topic_of(NOTE)
    assert message["vapid"]["aud"] == receiver.base_url
    assert message["vapid"]["sub"] == "mailto:dixit@localhost.test"


def test_an_unsubscribed_endpoint_answers_410_which_the_sender_reports_gone(receiver: PushReceiver) -> None:
    push = sender(generate_vapid_key())
    made = receiver.subscribe(push.public_key())
    assert receiver.unsubscribe(str(made["id"]))
    attempt = push.send(subscription_of(made), payload_of(NOTE), ttl=600, topic=topic_of(NOTE))
    assert attempt.result is PushResult.GONE
    assert attempt.status == "410"
    assert receiver.messages() == []


def test_a_push_signed_by_another_key_than_the_one_subscribed_with_is_refused(receiver: PushReceiver) -> None:
    made = receiver.subscribe(sender(generate_vapid_key()).public_key())
    attempt = sender(generate_vapid_key()).send(
        subscription_of(made), payload_of(NOTE), ttl=600, topic=topic_of(NOTE)
    )
    assert attempt.result is PushResult.FAILED
    assert attempt.status == "403"
    assert receiver.messages() == []


def test_a_push_encrypted_for_other_keys_does_not_decrypt(receiver: PushReceiver) -> None:
    push = sender(generate_vapid_key())
    made, other = receiver.subscribe(push.public_key()), receiver.subscribe(push.public_key())
    wrong = subscription_of({**other, "id": made["id"], "endpoint": made["endpoint"]})
    attempt = push.send(wrong, payload_of(NOTE), ttl=600, topic=topic_of(NOTE))
    assert attempt.status == "400"
    assert receiver.messages() == []


def test_a_vapid_token_for_another_origin_or_already_expired_is_refused() -> None:
    from py_vapid import Vapid

    vapid = Vapid.from_string(private_key=generate_vapid_key())
    elsewhere = vapid.sign({"sub": "mailto:a@b.test", "aud": "https://elsewhere.test", "exp": 2_000_000_000})
    with pytest.raises(ValueError, match="aud"):
        verify_vapid(elsewhere["Authorization"], audience="http://127.0.0.1:1", expected_key=None, now=1.9e9)
    expired = vapid.sign({"sub": "mailto:a@b.test", "aud": "http://127.0.0.1:1", "exp": 1_000})
    with pytest.raises(ValueError, match="exp"):
        verify_vapid(expired["Authorization"], audience="http://127.0.0.1:1", expected_key=None, now=2_000)


def test_the_sender_never_posts_to_a_private_address() -> None:
    push = PywebpushSender(generate_vapid_key, "mailto:dixit@localhost.test")  # as on AWS: no loopback
    target = WebPushSubscription("x", "http://127.0.0.1:9/push", "BP" + "A" * 85, "A" * 22, None, "")
    assert push.send(target, b"{}", ttl=60, topic="t").result is PushResult.REFUSED
    private = WebPushSubscription("x", "https://10.0.0.1/push", "BP" + "A" * 85, "A" * 22, None, "")
    assert push.send(private, b"{}", ttl=60, topic="t").result is PushResult.REFUSED
