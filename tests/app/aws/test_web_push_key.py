"""The VAPID key from SSM (moto): read once per execution environment, never required to exist."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws

from app.aws.web_push import PywebpushSender, SsmVapidKey, vapid_subject
from local_stack.push import generate_vapid_key
from tests.support.aws import MOTO_CONFIG, forget_clients_and_settings, set_environment

PARAMETER = "/dixit/test/web-push-vapid"


@pytest.fixture
def ssm(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    set_environment(monkeypatch)
    with mock_aws(config=MOTO_CONFIG):
        yield boto3.client("ssm")
    forget_clients_and_settings()


def test_the_key_is_read_from_a_secure_string_once_and_kept(ssm: Any) -> None:
    key = generate_vapid_key()
    ssm.put_parameter(Name=PARAMETER, Type="SecureString", Value=key)
    read = SsmVapidKey(PARAMETER)
    assert read() == key
    ssm.delete_parameter(Name=PARAMETER)
    assert read() == key


def test_a_missing_parameter_or_none_named_turns_web_push_off(ssm: Any) -> None:
    assert SsmVapidKey(PARAMETER)() is None
    assert SsmVapidKey("")() is None
    assert PywebpushSender(SsmVapidKey(""), "mailto:a@b.test").public_key() is None


def test_the_public_key_is_the_uncompressed_point_browsers_subscribe_with(ssm: Any) -> None:
    ssm.put_parameter(Name=PARAMETER, Type="SecureString", Value=generate_vapid_key())
    public = PywebpushSender(SsmVapidKey(PARAMETER), "mailto:a@b.test").public_key()
    assert public is not None
    assert len(public) == 87
    assert public.startswith("B")  # 0x04, base64url


def test_the_vapid_subject_falls_back_to_the_sender_address_then_the_web_client() -> None:
    assert vapid_subject("https://ops.example", "dixit@example.com", "") == "https://ops.example"
    assert vapid_subject("", "dixit@example.com", "https://play.example/") == "mailto:dixit@example.com"
    assert vapid_subject("", "", "https://play.example/") == "https://play.example"
    assert vapid_subject("", "", "http://127.0.0.1:3000").startswith("mailto:")


def test_the_api_function_starts_without_loading_pywebpush_aiohttp_or_requests() -> None:
    import subprocess
    import sys

    heavy = "{'pywebpush', 'aiohttp', 'requests', 'py_vapid'}"
    probe = f"import sys, handlers.api; print(sorted({heavy} & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_sender_never_pushes_to_the_local_stacks_own_ports_but_to_its_receiver() -> None:
    from app.aws.web_push import PywebpushSender
    from app.notify.web_push.ports import PushResult, WebPushSubscription

    sender = PywebpushSender(
        lambda: None,
        "mailto:dixit@example.com",
        allow_loopback_http=True,
        refused_loopback_ports=frozenset({4566}),
    )

    def to(endpoint: str) -> WebPushSubscription:
        return WebPushSubscription(
            "s", endpoint, "BP" + "A" * 85, "B" * 22, None, "2026-03-01T12:00:00+00:00"
        )

    refused = sender.send(to("http://127.0.0.1:4566/moto-api/reset"), b"{}", ttl=60, topic="t")
    assert refused.result is PushResult.REFUSED
    # The receiver's own path passes the check (and then fails here only for want of a key).
    receiver = sender.send(to("http://127.0.0.1:4566/_local/push/endpoints/s"), b"{}", ttl=60, topic="t")
    assert (receiver.result, receiver.status) == (PushResult.FAILED, "web_push_not_configured")
