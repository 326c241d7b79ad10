"""The live channel's adapters: the store of tickets, connections and watches (DynamoDB on moto and its
in-memory double, as one contract), the socket (PostToConnection on moto, and its 410 and failures), and
the queue (SQS on moto)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from botocore.stub import Stubber

from app.aws.dynamodb.live import DynamoLiveStore
from app.aws.live_socket import ApiGatewayLiveSocket
from app.aws.sqs import SqsLiveQueue
from app.live.ports import Posted, TicketHolder
from tests.fakes.live import MemoryLiveStore
from tests.support.aws import TABLE, empty_table, forget_clients_and_settings, set_environment

T0 = 1_780_000_000
LATER = T0 + 3_600
G1, G2, G3 = "g_0000000000000001", "g_0000000000000002", "g_0000000000000003"


@pytest.fixture(params=["memory", "dynamodb"])
def store(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    set_environment(monkeypatch)
    if request.param == "memory":
        yield MemoryLiveStore()
    else:
        request.getfixturevalue("_moto")
        yield DynamoLiveStore(TABLE)
        empty_table()
    forget_clients_and_settings()


def test_a_ticket_is_taken_once_and_never_after_it_expired(store: Any) -> None:
    store.put_ticket("h1", "p_ada", credential="s_1", expires_at=T0 + 30)
    assert store.take_ticket("h1", now=T0) == TicketHolder("p_ada", "s_1")
    assert store.take_ticket("h1", now=T0) is None  # replayed
    store.put_ticket("h2", "p_ada", credential="s_1", expires_at=T0 + 30)
    assert store.take_ticket("h2", now=T0 + 30) is None  # expired (DynamoDB's TTL may not have run yet)
    assert store.take_ticket("unknown", now=T0) is None


def test_connections_are_counted_per_player_up_to_the_cap(store: Any) -> None:
    assert store.add_connection("c1", "p_ada", now=T0, expires_at=LATER, most=2)
    assert store.add_connection("c2", "p_ada", now=T0, expires_at=LATER, most=2)
    assert not store.add_connection("c3", "p_ada", now=T0, expires_at=LATER, most=2)
    assert store.add_connection("c4", "p_bob", now=T0, expires_at=LATER, most=2)
    assert sorted(store.connections_of("p_ada", now=T0)) == ["c1", "c2"]
    assert store.player_of("c1", now=T0) == "p_ada"
    # An expired connection is nobody's, and no longer counts.
    assert store.player_of("c1", now=LATER) is None
    assert store.connections_of("p_ada", now=LATER) == []
    assert store.add_connection("c5", "p_ada", now=LATER, expires_at=LATER + 10, most=2)


def test_watches_are_capped_per_connection_and_forgotten_with_it(store: Any) -> None:
    store.add_connection("c1", "p_ada", now=T0, expires_at=LATER, most=5)
    store.add_connection("c2", "p_bob", now=T0, expires_at=LATER, most=5)
    assert store.add_watch("c1", "p_ada", G1, expires_at=LATER, most=2)
    assert store.add_watch("c1", "p_ada", G2, expires_at=LATER, most=2)
    assert store.add_watch("c1", "p_ada", G2, expires_at=LATER, most=2)  # again: still two
    assert not store.add_watch("c1", "p_ada", G3, expires_at=LATER, most=2)
    assert store.add_watch("c2", "p_bob", G1, expires_at=LATER, most=2)
    assert not store.add_watch("c9", "p_ada", G1, expires_at=LATER, most=2)  # no such connection
    assert sorted(store.watchers_with_players(G1, now=T0)) == ["c1", "c2"]
    store.remove_watch("c1", G2)
    assert sorted(store.watchers_with_players(G2, now=T0)) == []
    assert store.add_watch("c1", "p_ada", G3, expires_at=LATER, most=2)  # a place came free
    store.forget("c1")
    store.forget("c1")  # idempotent
    assert sorted(store.watchers_with_players(G1, now=T0)) == ["c2"]
    assert sorted(store.watchers_with_players(G3, now=T0)) == []
    assert store.connections_of("p_ada", now=T0) == []
    assert store.player_of("c1", now=T0) is None


def test_a_connection_remembers_the_credential_that_opened_it(store: Any) -> None:
    store.add_connection("c1", "p_ada", credential="s_1", now=T0, expires_at=LATER, most=5)
    store.add_connection("c2", "p_ada", credential="t_0000000000000001", now=T0, expires_at=LATER, most=5)
    store.add_connection("c3", "p_bob", credential="s_2", now=T0, expires_at=LATER, most=5)
    assert store.credentials_of("p_ada", now=T0) == {"c1": "s_1", "c2": "t_0000000000000001"}
    assert store.credentials_of("p_ada", now=LATER) == {}  # expired
    store.forget("c1")
    assert store.credentials_of("p_ada", now=T0) == {"c2": "t_0000000000000001"}


def test_a_games_watchers_are_read_with_their_players(store: Any) -> None:
    store.add_connection("c1", "p_ada", credential="s_1", now=T0, expires_at=LATER, most=5)
    store.add_connection("c2", "p_bob", credential="s_2", now=T0, expires_at=LATER, most=5)
    store.add_watch("c1", "p_ada", G1, expires_at=LATER, most=5)
    store.add_watch("c2", "p_bob", G1, expires_at=LATER, most=5)
    assert store.watchers_with_players(G1, now=T0) == {"c1": "p_ada", "c2": "p_bob"}
    assert store.watchers_with_players(G1, now=LATER) == {}
    assert store.watchers_with_players(G2, now=T0) == {}


@pytest.mark.usefixtures("_moto")
def test_the_store_keeps_out_of_every_other_partition(monkeypatch: pytest.MonkeyPatch) -> None:
    set_environment(monkeypatch)
    store = DynamoLiveStore(TABLE)
    store.put_ticket("h1", "p_ada", credential="s_1", expires_at=T0 + 30)
    store.add_connection("c1", "p_ada", credential="s_1", now=T0, expires_at=LATER, most=5)
    store.add_watch("c1", "p_ada", G1, expires_at=LATER, most=5)
    items = boto3.client("dynamodb").scan(TableName=TABLE)["Items"]
    assert items
    assert all(item["pk"]["S"].startswith("LIVE#") for item in items)
    assert all(item["sk"]["S"] != "STATE" for item in items)  # the stream's filter never passes them
    assert all("expires_at" in item for item in items)  # every one expires
    empty_table()
    forget_clients_and_settings()


@pytest.mark.usefixtures("_moto")
def test_a_post_reaches_the_connection_through_the_management_api(monkeypatch: pytest.MonkeyPatch) -> None:
    set_environment(monkeypatch)
    client = boto3.client(
        "apigatewaymanagementapi", endpoint_url="https://live0.execute-api.us-east-1.amazonaws.com/dev"
    )
    socket = ApiGatewayLiveSocket("https://live0.execute-api.us-east-1.amazonaws.com/dev", client)
    assert socket.post("c1", b'{"type":"game.changed"}') is Posted.SENT
    forget_clients_and_settings()


def _stubbed(error_code: str, status: int) -> ApiGatewayLiveSocket:
    client = boto3.client(
        "apigatewaymanagementapi",
        endpoint_url="https://live0.execute-api.us-east-1.amazonaws.com/dev",
        region_name="us-east-1",
        aws_access_key_id="x",
        aws_secret_access_key="x",
    )
    stub = Stubber(client)
    stub.add_client_error("post_to_connection", service_error_code=error_code, http_status_code=status)
    stub.activate()
    return ApiGatewayLiveSocket("https://live0.execute-api.us-east-1.amazonaws.com/dev", client)


def test_a_closed_connection_is_gone_and_a_throttled_post_failed() -> None:
    assert _stubbed("GoneException", 410).post("c1", b"{}") is Posted.GONE
    assert _stubbed("LimitExceededException", 429).post("c1", b"{}") is Posted.FAILED
    assert _stubbed("InternalFailure", 500).post("c1", b"{}") is Posted.FAILED


def test_a_dead_endpoint_fails_fast_without_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    # Nothing listens there: one attempt, a refused connection, FAILED at once rather than SDK retries.
    from app.aws.clients import live_connections

    set_environment(monkeypatch)
    client = live_connections("http://127.0.0.1:9")
    assert client.meta.config.retries["total_max_attempts"] == 1
    assert client.meta.config.read_timeout <= 2
    assert ApiGatewayLiveSocket("http://127.0.0.1:9", client).post("c1", b"{}") is Posted.FAILED
    forget_clients_and_settings()


@pytest.mark.usefixtures("_moto")
def test_the_live_queue_takes_announcements(monkeypatch: pytest.MonkeyPatch) -> None:
    set_environment(monkeypatch)
    sqs = boto3.client("sqs")
    url = sqs.create_queue(QueueName="dixit-live-test")["QueueUrl"]
    queue = SqsLiveQueue(url, sqs)
    assert queue.configured()
    assert not SqsLiveQueue("").configured()
    assert queue.send(['{"game_id":"g"}']) == []
    (message,) = sqs.receive_message(QueueUrl=url)["Messages"]
    assert message["Body"] == '{"game_id":"g"}'
    broken = SqsLiveQueue("https://sqs.us-east-1.amazonaws.com/123456789012/none", sqs)
    assert broken.send(["a"]) == ["a"]  # refused: the stream record is retried
    forget_clients_and_settings()
