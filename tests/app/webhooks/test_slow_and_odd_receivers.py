"""A receiver cannot hold a delivery past its deadline, and no URL makes a delivery fail unrecorded (#25)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from app import bootstrap
from app.aws.sqs import SqsWebhookQueue
from app.core.records import PlayerRecord
from app.webhooks import ssrf
from app.webhooks.dispatch import WebhookMessage, deliver
from app.webhooks.http import post
from app.webhooks.records import WebhookRecord
from app.webhooks.ssrf import Target
from app.webhooks.subscriptions import subscribe
from tests.api.client import Client
from tests.support.http_peer import read_request
from tests.support.webhooks import Queues, Receiver

ANSWER = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"


@contextmanager
def trickling(pause: float) -> Iterator[int]:
    """A receiver on 127.0.0.1 that answers 200, one byte every `pause` seconds: each read is quick, the
    whole answer slow. It serves one connection and stops by itself once the sender hangs up."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(10)
    stop = threading.Event()

    def serve() -> None:
        try:
            peer, _ = listener.accept()
        except OSError:
            return
        with peer:
            read_request(peer)
            for byte in ANSWER:
                if stop.wait(pause):
                    return
                try:
                    peer.sendall(bytes([byte]))
                except OSError:
                    return  # the sender gave up: what the test wants

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        listener.close()
        thread.join(timeout=10)


def loopback(port: int, path: str = "/hook") -> Target:
    return Target(scheme="http", host="127.0.0.1", port=port, path=path, address="127.0.0.1")


def test_a_receiver_trickling_its_answer_times_out_as_a_whole_not_per_read() -> None:
    # A byte every 0.1 s never trips a 0.5 s per-read timeout; the whole answer would take 6 s.
    with trickling(pause=0.1) as port:
        outcome = post(loopback(port), b"{}", {"Content-Type": "application/json"}, timeout=0.5)
    assert (outcome.ok, outcome.status) == (False, "timeout")


def test_a_receiver_that_answers_in_time_is_still_delivered() -> None:
    with trickling(pause=0) as port:
        outcome = post(loopback(port), b"{}", {"Content-Type": "application/json"}, timeout=5)
    assert (outcome.ok, outcome.status) == (True, "200")


def test_a_path_that_cannot_be_written_on_the_wire_is_an_outcome_not_an_exception() -> None:
    outcome = post(loopback(9, "/café"), b"{}", {}, timeout=1)
    assert (outcome.ok, outcome.status) == (False, "request_error")


def test_a_url_is_normalized_to_an_idna_host_and_a_percent_encoded_path() -> None:
    assert (
        ssrf.normalize("https://Bücher.Example/café?q=ü")
        == "https://xn--bcher-kva.example/caf%C3%A9?q=%C3%BC"
    )
    assert ssrf.normalize("https://a.example/already%20encoded") == "https://a.example/already%20encoded"


def test_a_non_ascii_url_is_stored_as_it_will_be_called(queues: Queues, receiver: Receiver) -> None:
    url = receiver.url.replace("/hooks/dixit", "/café")
    record, _ = subscribe(bootstrap.services(), owner_record(), url, ["turn.owed"])
    assert record.url == url.replace("café", "caf%C3%A9")


def owner_record() -> PlayerRecord:
    client = Client("Webhook owner").register()
    found = bootstrap.services().players.get_player(client.player_id)
    assert found is not None
    return found


def stored_webhook(owner: PlayerRecord, url: str) -> WebhookRecord:
    """A webhook stored as an older release registered it: its URL as the player typed it."""
    record = WebhookRecord(
        webhook_id="wh_00000000000000ab",
        player_id=owner.player_id,
        url=url,
        events=("turn.owed",),
        secret="whsec_test",
        created_at="2026-11-30T12:00:00+00:00",
    )
    assert bootstrap.services().webhooks.create_webhook(record, max_per_player=5)
    return record


def message_for(webhook: WebhookRecord) -> WebhookMessage:
    return WebhookMessage(
        webhook_id=webhook.webhook_id,
        player_id=webhook.player_id,
        delivery_id="dlv_test",
        enqueued_at=bootstrap.services().now_iso(),
        event={"id": "evt_1", "type": "turn.owed"},
    )


def test_a_stored_non_ascii_path_is_delivered_percent_encoded(queues: Queues, receiver: Receiver) -> None:
    owner = owner_record()
    webhook = stored_webhook(owner, receiver.url.replace("/hooks/dixit", "/café"))
    services = bootstrap.services()
    result = deliver(services, SqsWebhookQueue(queues.url, queues.dlq_url), message_for(webhook), attempt=1)
    assert getattr(result, "outcome", None) == "delivered"
    assert [r.path for r in receiver.requests] == ["/caf%C3%A9"]


def test_an_encoding_error_while_vetting_is_a_recorded_attempt_counting_toward_disabling(
    queues: Queues, monkeypatch: pytest.MonkeyPatch
) -> None:
    owner = owner_record()
    webhook = stored_webhook(owner, "http://127.0.0.1:9/hook")

    def unencodable(url: str, **_: object) -> None:
        raise UnicodeEncodeError("ascii", url, 0, 1, "not ASCII")

    monkeypatch.setattr(ssrf, "vet", unencodable)
    services = bootstrap.services()
    deliver(services, SqsWebhookQueue(queues.url, queues.dlq_url), message_for(webhook), attempt=1)
    [attempt] = services.webhooks.list_delivery_attempts(webhook.webhook_id, 10)
    assert attempt.outcome == "failed"
    health = services.webhooks.get_webhook(owner.player_id, webhook.webhook_id)
    assert health is not None
    assert health.consecutive_failures == 1


def test_site_local_and_other_non_global_ipv6_is_refused() -> None:
    for address in ("fec0::1", "fec0:ffff::1", "feff::1", "fc00::1", "4000::1", "100::1"):
        assert ssrf.refusal(ssrf.ipaddress.ip_address(address), allow_loopback=False) is not None, address
    assert ssrf.refusal(ssrf.ipaddress.ip_address("2606:4700::1111"), allow_loopback=False) is None


def test_a_local_webhook_may_call_loopback_but_never_the_local_stacks_own_ports() -> None:
    own = frozenset({4566, 3000})
    loopback_only = lambda host, port: ["127.0.0.1"]  # noqa: E731
    for url in ("http://127.0.0.1:4566/moto-api/reset", "http://localhost:3000/games"):
        with pytest.raises(ssrf.UnsafeUrl) as refused:
            ssrf.vet(url, allow_loopback_http=True, resolver=loopback_only, refused_loopback_ports=own)
        assert refused.value.code == "webhook_url_forbidden_address"
    kept = ssrf.vet("http://127.0.0.1:8123/hook", allow_loopback_http=True, refused_loopback_ports=own)
    assert kept.port == 8123


def test_the_refused_ports_setting_reads_a_comma_separated_list() -> None:
    from app.core.settings import AppSettings

    settings = AppSettings.from_environ({"WEBHOOK_REFUSED_LOOPBACK_PORTS": "4566, 3000"})
    assert settings.refused_loopback_ports == frozenset({4566, 3000})
    assert AppSettings.from_environ({}).refused_loopback_ports == frozenset()
