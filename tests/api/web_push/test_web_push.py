"""The Web Push routes over the API handler, on moto: the key, storing and forgetting subscriptions."""

from __future__ import annotations

import base64
import os
from collections.abc import Sequence

import boto3
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from app.core.settings import get_settings
from app.webhooks import ssrf
from local_stack.push import generate_vapid_key

from ..client import Client
from ..helpers import assert_problem

PARAMETER = "/dixit/test/web-push-vapid"
ENDPOINT = "https://push.example.com/send/abc"


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def browser_subscription(endpoint: str = ENDPOINT) -> dict[str, object]:
    point = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    return {
        "endpoint": endpoint,
        "expirationTime": None,
        "keys": {"p256dh": b64(point), "auth": b64(os.urandom(16))},
    }


@pytest.fixture
def vapid(aws: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A VAPID key in SSM, named to the API as the template does; every host resolves publicly."""
    boto3.client("ssm").put_parameter(
        Name=PARAMETER, Type="SecureString", Value=generate_vapid_key(), Overwrite=True
    )
    monkeypatch.setenv("WEB_PUSH_VAPID_PARAMETER", PARAMETER)
    get_settings.cache_clear()

    def resolve(host: str, port: int) -> Sequence[str]:
        return [host] if host[0].isdigit() else ["93.184.215.14"]

    monkeypatch.setattr(ssrf, "system_resolver", resolve)


def test_the_vapid_public_key_is_public(vapid: None) -> None:
    reply = Client("anonymous").get("/web-push/key")
    assert reply.status == 200, reply.raw
    assert len(reply.body["public_key"]) == 87


def test_without_a_vapid_parameter_the_key_and_subscribing_answer_501(players: list[Client]) -> None:
    assert_problem(Client("anonymous").get("/web-push/key"), 501, "web_push_not_configured")
    reply = players[0].put("/players/me/web-push/browser-1", browser_subscription())
    assert_problem(reply, 501, "web_push_not_configured")


def test_a_subscription_is_stored_listed_replaced_and_forgotten(players: list[Client], vapid: None) -> None:
    me = players[0]
    first = me.put("/players/me/web-push/browser-1", browser_subscription())
    assert first.status == 201, first.raw
    assert first.headers["Location"] == "/players/me/web-push/browser-1"
    assert "keys" not in first.body
    again = me.put("/players/me/web-push/browser-1", browser_subscription(f"{ENDPOINT}/2"))
    assert again.status == 200
    listed = me.get("/players/me/web-push").body["subscriptions"]
    assert [(s["subscription_id"], s["endpoint"]) for s in listed] == [("browser-1", f"{ENDPOINT}/2")]
    assert players[1].get("/players/me/web-push").body["subscriptions"] == []
    assert me.delete("/players/me/web-push/browser-1").status == 204
    assert_problem(me.delete("/players/me/web-push/browser-1"), 404, "web_push_subscription_not_found")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (browser_subscription("https://10.1.2.3/push"), "invalid_push_endpoint"),
        (browser_subscription("http://push.example.com/push"), "invalid_push_endpoint"),
        (
            {**browser_subscription(), "keys": {"p256dh": "B" + "A" * 85, "auth": "A" * 21}},
            "validation_error",
        ),
        ({**browser_subscription(), "extra": 1}, "validation_error"),
    ],
)
def test_a_subscription_we_could_not_or_would_not_push_to_is_refused(
    players: list[Client], vapid: None, body: dict[str, object], code: str
) -> None:
    reply = players[0].put("/players/me/web-push/browser-1", body)
    assert_problem(reply, 422, code)
    assert players[0].get("/players/me/web-push").body["subscriptions"] == []


def test_the_web_push_routes_need_a_token(vapid: None) -> None:
    assert_problem(Client("anonymous").get("/players/me/web-push"), 401, "missing_token")
