"""GameStreamFunction is also the feed's writer and the webhooks' producer: moves through the API on moto,
the table's stream fed to the consumer as its event source mapping would, the webhook queue read back.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.aws.sqs import SqsWebhookQueue
from app.games import state_codec
from app.webhooks.dispatch import WebhookMessage
from tests.api.client import Client
from tests.api.helpers import give_clue, started, storyteller
from tests.api.stream import StreamFeed, invoke_notify
from tests.support.aws import TABLE
from tests.support.webhooks import Queues, Receiver


@pytest.fixture
def feed(queues: Queues) -> StreamFeed:
    return StreamFeed(TABLE)


def subscribe(client: Client, receiver: Receiver, events: list[str]) -> str:
    reply = client.post("/players/me/webhooks", {"url": receiver.url, "events": events})
    assert reply.status == 201, reply.raw
    webhook_id: str = reply.body["webhook_id"]
    return webhook_id


def messages(queues: Queues) -> list[WebhookMessage]:
    found: list[WebhookMessage] = []
    while batch := queues.receive():
        found += [WebhookMessage.from_json(m["Body"]) for m in batch]
    return found


def test_a_game_change_on_the_stream_enqueues_one_message_per_subscribed_event_and_fills_the_feed(
    players: list[Client],
    queues: Queues,
    receiver: Receiver,
    feed: StreamFeed,
) -> None:
    for member in players[:3]:
        subscribe(member, receiver, ["turn.owed"])
    game_id = started(players[:3])

    assert feed.deliver() == {"batchItemFailures": []}

    sent = messages(queues)
    # Start: everyone learns the storyteller owes a clue; nobody subscribed to game.started or joins.
    assert sorted(m.event["recipient_id"] for m in sent) == sorted(p.player_id for p in players[:3])
    assert {m.event["type"] for m in sent} == {"turn.owed"}
    teller = storyteller(players[:3], game_id)
    (mine,) = [m for m in sent if m.player_id == teller.player_id]
    assert mine.event["you_owe"] is True
    assert mine.event["owed"] == [{"player_id": teller.player_id, "move": "clue"}]
    # The feed holds every event of the change for its member, subscribed or not.
    page = teller.get(f"/games/{game_id}/events").body
    assert [e["type"] for e in page["events"]][-2:] == ["game.started", "turn.owed"]
    assert page["events"][-1]["id"] == mine.event["id"]


def test_a_replayed_stream_batch_enqueues_the_same_delivery_ids_and_rewrites_the_same_feed(
    players: list[Client],
    queues: Queues,
    receiver: Receiver,
    feed: StreamFeed,
) -> None:
    subscribe(players[1], receiver, ["game.started", "turn.owed", "player.joined"])
    game_id = started(players[:3])
    give_clue(players[:3], game_id)
    event = feed.event()

    assert invoke_notify(event) == {"batchItemFailures": []}
    first = messages(queues)
    before = players[1].get(f"/games/{game_id}/events").body["events"]
    assert invoke_notify(event) == {"batchItemFailures": []}  # Lambda retried the whole batch
    again = messages(queues)
    after = players[1].get(f"/games/{game_id}/events").body["events"]

    assert first
    assert sorted(m.delivery_id for m in again) == sorted(m.delivery_id for m in first)
    # Same ids and the same payloads (occurred_at is the commit time, not the replay's).
    assert sorted(m.event["id"] for m in again) == sorted(m.event["id"] for m in first)
    assert {m.delivery_id: m.event for m in again} == {m.delivery_id: m.event for m in first}
    assert after == before


def test_a_record_whose_deliveries_cannot_be_enqueued_is_reported_alone(
    players: list[Client],
    queues: Queues,
    receiver: Receiver,
    feed: StreamFeed,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    doomed_owner, fine_owner = players[0], players[3]
    subscribe(doomed_owner, receiver, ["turn.owed"])
    subscribe(fine_owner, receiver, ["turn.owed"])
    doomed = started(players[:3])
    fine = started(players[3:6])
    original = SqsWebhookQueue.send

    def refusing(self: SqsWebhookQueue, bodies: Any) -> list[str]:
        if any(doomed in body for body in bodies):
            return list(bodies)  # SQS refused every entry of the batch
        return original(self, bodies)

    monkeypatch.setattr(SqsWebhookQueue, "send", refusing)
    event = feed.event()
    doomed_started = {
        r["dynamodb"]["SequenceNumber"]
        for r in event["Records"]
        if r["dynamodb"]["Keys"]["pk"]["S"] == f"GAME#{doomed}"
        and state_codec.unpack(r["dynamodb"]["NewImage"]["state"]["B"]).phase.value == "storytelling"
    }
    assert len(doomed_started) == 1

    answer = invoke_notify(event)

    assert {f["itemIdentifier"] for f in answer["batchItemFailures"]} == doomed_started
    assert {m.event["game_id"] for m in messages(queues)} == {fine}
