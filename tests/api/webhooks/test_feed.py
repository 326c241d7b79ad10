"""A game played through the API, its stream changes fed to the consumer: webhooks and the feed agree.

The table's stream is stood in for by `Stream`, which hands `record_change` (the game change flow's feed
and webhooks step) every new version of the game item exactly as a DynamoDB Streams record would (old
and new image), once per API call.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import boto3
import pytest

from app import bootstrap
from app.flows.game_change import GameChange, record_events, rematched
from app.webhooks.signing import verify
from tests.api.client import Client, FakeContext
from tests.api.helpers import assert_problem, create_game, foreign_card, give_clue, storyteller, submit_all
from tests.support.aws import TABLE
from tests.support.webhooks import Queues, Receiver, sqs_event


@dataclass
class Stream:
    """The game item's changes, as the table's stream would deliver them to the consumer."""

    game_id: str
    seen: dict[str, Any] | None = None
    changes: list[tuple[dict[str, Any] | None, dict[str, Any]]] = field(default_factory=list)

    def flush(self) -> None:
        item = boto3.client("dynamodb").get_item(
            TableName=TABLE, Key={"pk": {"S": f"GAME#{self.game_id}"}, "sk": {"S": "STATE"}}
        )["Item"]
        new = {"state": item["state"]["B"], "version": int(item["version"]["N"])}
        if self.seen is None or self.seen["version"] != new["version"]:
            record_change(self.seen, new)
            self.changes.append((self.seen, new))
            self.seen = new


def record_change(old_image: dict[str, Any] | None, new_image: dict[str, Any]) -> None:
    """The feed and webhooks part of GameStreamFunction's work on one change, as the flow does it."""
    services = bootstrap.services()
    change = GameChange.of_images(old_image, new_image)
    record_events(services, change, rematched(services, change))


def drain(queues: Queues, rounds: int = 20) -> int:
    """Run WebhookFunction until the queue is empty, letting each backoff pass at once; rounds used."""
    from handlers.webhook_delivery import lambda_handler

    arn = boto3.client("sqs").get_queue_attributes(QueueUrl=queues.url, AttributeNames=["QueueArn"])
    for used in range(1, rounds + 1):
        messages = queues.receive()
        if not messages:
            return used
        result = lambda_handler(sqs_event(messages, arn["Attributes"]["QueueArn"]), FakeContext())
        failed = {f["itemIdentifier"] for f in result["batchItemFailures"]}
        for message in messages:
            if message["MessageId"] in failed:
                queues.show_again(message)
    raise AssertionError("the webhook queue never emptied")


def feed(client: Client, game_id: str, limit: int = 100) -> list[dict[str, Any]]:
    """Every event of the client's feed, page by page, each page resumed from the previous cursor."""
    events: list[dict[str, Any]] = []
    cursor = ""
    for _ in range(100):
        reply = client.get(f"/games/{game_id}/events", query={"after": cursor, "limit": str(limit)})
        assert reply.status == 200, reply.raw
        events += reply.body["events"]
        if not reply.body["has_more"]:
            return events
        assert reply.body["cursor"] > cursor
        cursor = reply.body["cursor"]
    raise AssertionError("the feed never ended")


def play_a_round(clients: list[Client], stream: Stream) -> None:
    game_id = stream.game_id
    give_clue(clients, game_id)
    stream.flush()
    submit_all(clients, game_id)
    stream.flush()
    teller = storyteller(clients, game_id)
    for client in clients:
        if client is not teller:
            reply = client.post(f"/games/{game_id}/votes", {"card_ids": [foreign_card(client, game_id)]})
            assert reply.status == 200, reply.raw
            stream.flush()


@pytest.fixture
def played(queues: Queues, receiver: Receiver) -> tuple[list[Client], Stream, str]:
    """Four players, the first subscribed to turn.owed and round.revealed; two rounds played."""
    clients = [Client(f"Player {i}").register() for i in range(4)]
    reply = clients[0].post(
        "/players/me/webhooks", {"url": receiver.url, "events": ["turn.owed", "round.revealed"]}
    )
    assert reply.status == 201, reply.raw
    secret: str = reply.body["secret"]
    # The receiver is down for a while: two 500s, then a request it never answers in time.
    receiver.script = [500, 500, "sleep"]
    stream = Stream(create_game(clients[0]))
    stream.flush()
    for guest in clients[1:]:
        assert guest.post(f"/games/{stream.game_id}/join").status == 200
        stream.flush()
    assert clients[0].post(f"/games/{stream.game_id}/start").status == 200
    stream.flush()
    play_a_round(clients, stream)
    play_a_round(clients, stream)
    drain(queues)
    return clients, stream, secret


def test_a_subscribed_receiver_gets_signed_turn_owed_and_round_revealed_and_survives_failing_for_a_while(
    played: tuple[list[Client], Stream, str], receiver: Receiver
) -> None:
    clients, _, secret = played
    failures = [r for r in receiver.requests if r.headers["Dixit-Attempt"] != "1"]
    assert failures, "the failing start made some deliveries be retried"
    delivered: dict[str, dict[str, Any]] = {}
    for request in receiver.requests:
        timestamp = int(request.headers["Dixit-Signature"].split(",")[0].removeprefix("t="))
        assert verify(secret, request.headers["Dixit-Signature"], request.body, now=timestamp)
        event = json.loads(request.body)
        assert event["recipient_id"] == clients[0].player_id
        delivered[event["id"]] = event
    kinds = sorted(e["type"] for e in delivered.values())
    assert kinds.count("round.revealed") == 2
    assert kinds.count("turn.owed") >= 6  # clue, cards and vote stages of two rounds, and the third clue
    [webhook] = clients[0].get("/players/me/webhooks").body["webhooks"]
    assert webhook["health"]["consecutive_failures"] == 0
    assert webhook["health"]["disabled"] is False


def test_the_feed_replays_the_delivered_events_in_order_with_a_cursor_across_pages(
    played: tuple[list[Client], Stream, str], receiver: Receiver
) -> None:
    clients, stream, secret = played
    everything = feed(clients[0], stream.game_id)
    assert feed(clients[0], stream.game_id, limit=3) == everything
    versions = [e["game_version"] for e in everything]
    assert versions == sorted(versions)
    delivered = {json.loads(r.body)["id"]: json.loads(r.body) for r in receiver.requests}
    subscribed = [e for e in everything if e["type"] in ("turn.owed", "round.revealed")]
    assert {e["id"]: e for e in subscribed} == delivered
    kinds = [e["type"] for e in everything]
    assert kinds[:4] == ["player.joined"] * 4  # the host at creation, then each guest
    assert kinds[4:6] == ["game.started", "turn.owed"]
    assert kinds.count("round.revealed") == 2

    # Each player has their own copy; a stranger has none; the feed never holds a secret.
    other = feed(clients[1], stream.game_id)
    assert {e["recipient_id"] for e in other} == {clients[1].player_id}
    assert [e["type"] for e in other] == kinds[1:]  # joined after the host's own arrival
    text = json.dumps(everything + other)
    assert secret not in text
    assert clients[0].token not in text
    stranger = Client("Stranger").register()
    assert_problem(stranger.get(f"/games/{stream.game_id}/events"), 403, "not_a_member")
    assert_problem(
        clients[0].get(f"/games/{stream.game_id}/events", query={"after": "not-a-cursor"}),
        422,
        "invalid_cursor",
    )


def test_replaying_a_stream_change_writes_no_second_copy_to_the_feed(
    played: tuple[list[Client], Stream, str],
) -> None:
    clients, stream, _ = played
    before = feed(clients[0], stream.game_id)
    for old, new in stream.changes:  # every record seen again, as retried stream batches would
        record_change(old, new)
    assert [e["id"] for e in feed(clients[0], stream.game_id)] == [e["id"] for e in before]
