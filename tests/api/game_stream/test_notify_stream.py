"""The stream consumer on moto: moves through the API, the stream fed to the consumer, SNS read back."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app.aws.sns import SnsNotifier
from app.games import state_codec
from tests.fakes.outbox import MemoryNotificationQueue
from tests.support.aws import TABLE
from tests.support.outbox import drain

from ..client import Client
from ..helpers import by_id, give_clue, hand, started, storyteller, submit_all, view
from ..sns_inbox import Published, make_topic, received, subscribe_queue
from ..stream import StreamFeed, invoke_notify


@pytest.fixture
def topic(aws: None, monkeypatch: pytest.MonkeyPatch) -> str:
    return make_topic(monkeypatch)


@pytest.fixture
def inbox(topic: str) -> str:
    return subscribe_queue(topic, "everything")


@pytest.fixture
def feed(aws: None) -> StreamFeed:
    return StreamFeed(TABLE)


def told(messages: list[Published]) -> list[tuple[str, str]]:
    return sorted((m.attributes["kind"], m.attributes["player_id"]) for m in messages)


def test_starting_a_game_tells_the_first_storyteller_with_attributes_and_the_game_path(
    players: list[Client], feed: StreamFeed, inbox: str
) -> None:
    game_id = started(players[:3])
    teller = storyteller(players[:3], game_id)

    assert feed.deliver() == {"batchItemFailures": []}

    (message,) = received(inbox)
    assert message.attributes == {"kind": "your_turn", "player_id": teller.player_id, "game_id": game_id}
    assert message.body["path"] == f"/games/{game_id}"
    assert message.body["phase"] == "storytelling"
    assert message.body["deadline"] > "2026"  # 48 hours after the deal, ISO-8601 UTC
    version = view(teller, game_id)["version"]
    assert message.body["dedupe_id"] == f"{game_id}:{teller.player_id}:{version}:your_turn"


def test_a_clue_tells_each_other_player_and_a_submission_tells_nobody_new(
    players: list[Client], feed: StreamFeed, inbox: str
) -> None:
    game_id = started(players[:4])
    feed.deliver()
    received(inbox)
    teller = give_clue(players[:4], game_id)
    feed.deliver()
    others = sorted(p.player_id for p in players[:4] if p is not teller)
    assert told(received(inbox)) == [("your_turn", pid) for pid in others]

    first = next(p for p in players[:4] if p is not teller)
    assert first.post(f"/games/{game_id}/submissions", {"card_ids": hand(first, game_id)[:1]}).status == 200
    feed.deliver()
    assert received(inbox) == []


def test_the_finish_is_told_to_every_player_once(players: list[Client], feed: StreamFeed, inbox: str) -> None:
    group = players[:3]
    game_id = started(group, target_score=1)
    teller = give_clue(group, game_id)
    submit_all(group, game_id)
    table = view(teller, game_id)["round"]["table"]
    for voter in group:
        if voter is teller:
            continue
        own = set(view(voter, game_id)["you"]["submitted"])
        pick = next(c["card_id"] for c in table if c["card_id"] not in own)
        voter.post(f"/games/{game_id}/votes", {"card_ids": [pick]})

    assert feed.deliver() == {"batchItemFailures": []}

    over = [m for m in received(inbox) if m.attributes["kind"] == "game_over"]
    assert sorted(m.attributes["player_id"] for m in over) == sorted(p.player_id for p in group)
    assert {m.body["path"] for m in over} == {f"/games/{game_id}"}


def test_nothing_secret_is_ever_published(players: list[Client], feed: StreamFeed, inbox: str) -> None:
    group = players[:4]
    game_id = started(group)
    hands = {p.player_id: hand(p, game_id) for p in group}
    give_clue(group, game_id, clue="the unsaid word")
    submit_all(group, game_id)
    feed.deliver()
    messages = received(inbox)
    assert messages
    for message in messages:
        assert "the unsaid word" not in message.raw
        assert not any(card in message.raw for cards in hands.values() for card in cards)
        assert set(message.body) <= {
            "kind",
            "game_id",
            "player_id",
            "path",
            "dedupe_id",
            "phase",
            "round",
            "deadline",
        }


def test_the_documented_filter_policy_lets_only_your_turn_through(
    players: list[Client], feed: StreamFeed, topic: str
) -> None:
    # The example subscription of docs/notifications.md.
    turns = subscribe_queue(topic, "your-turn-only", {"kind": ["your_turn"]})
    over = subscribe_queue(topic, "game-over-only", {"kind": ["game_over"]})
    started(players[:3])
    feed.deliver()
    assert [m.attributes["kind"] for m in received(turns)] == ["your_turn"]
    assert received(over) == []


def test_records_of_other_items_are_ignored_even_unfiltered(players: list[Client], feed: StreamFeed) -> None:
    players[0].post("/games", {})  # a game item, a membership item, players: nobody owes a move yet
    event = feed.event(filtered=False)
    assert any(r["dynamodb"]["Keys"]["sk"]["S"] != "STATE" for r in event["Records"])
    assert invoke_notify(event) == {"batchItemFailures": []}


def test_a_failing_record_is_reported_alone_so_the_others_are_not_retried(
    players: list[Client], feed: StreamFeed, inbox: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    doomed = started(players[:3])
    fine = started(players[3:6])
    original = MemoryNotificationQueue.enqueue

    def flaky(self: MemoryNotificationQueue, channel: Any, bodies: Sequence[str]) -> list[str]:
        if any(doomed in body for body in bodies):
            return list(bodies)  # SQS is having a bad day: the outbox refuses the doomed game's messages
        return original(self, channel, bodies)

    monkeypatch.setattr(MemoryNotificationQueue, "enqueue", flaky)
    event = feed.event()
    doomed_sequences = {
        r["dynamodb"]["SequenceNumber"]
        for r in event["Records"]
        if r["dynamodb"]["Keys"]["pk"]["S"] == f"GAME#{doomed}"
        and state_codec.unpack(r["dynamodb"]["NewImage"]["state"]["B"]).phase.value == "storytelling"
    }
    assert len(doomed_sequences) == 1

    answer = invoke_notify(event)

    assert {f["itemIdentifier"] for f in answer["batchItemFailures"]} == doomed_sequences
    fine_teller = by_id(players[3:6])[view(players[3], fine)["round"]["storyteller_id"]]
    assert told(received(inbox)) == [("your_turn", fine_teller.player_id)]


def test_a_failing_topic_publish_fails_no_record_and_is_retried_by_its_queue_alone(
    players: list[Client], feed: StreamFeed, inbox: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app import bootstrap

    game = started(players[:3])
    original = SnsNotifier.publish
    failing = [True]

    def flaky(self: SnsNotifier, notification: Any) -> bool:
        if failing[0]:
            raise RuntimeError("SNS is having a bad day")
        return original(self, notification)

    monkeypatch.setattr(SnsNotifier, "publish", flaky)
    assert feed.deliver() == {"batchItemFailures": []}  # the stream only queues: nothing failed there
    queue = bootstrap.services().notification_queue
    assert isinstance(queue, MemoryNotificationQueue)
    (waiting,) = queue.pending  # the teller's device-push message, to be retried
    assert game in waiting[1]
    assert received(inbox) == []
    failing[0] = False
    services = bootstrap.services()
    services = replace(services, clock=lambda: datetime.now(UTC) + timedelta(minutes=10))  # claim expired
    assert drain(queue, services, attempt=2) == ["sent"]
    assert drain(queue, services, attempt=3) == []
    assert [m.attributes["kind"] for m in received(inbox)] == ["your_turn"]


def test_muted_players_hear_nothing_and_unmuting_brings_them_back(
    players: list[Client], feed: StreamFeed, inbox: str
) -> None:
    group = players[:4]
    game_id = started(group)
    feed.deliver()
    received(inbox)
    teller = storyteller(group, game_id)
    others = [p for p in group if p is not teller]
    game_muter, everywhere_muter, listener = others
    assert game_muter.put(f"/games/{game_id}/notifications", {"muted": True}).status == 200
    assert everywhere_muter.put("/players/me/notifications", {"muted": True}).status == 200

    give_clue(group, game_id)
    feed.deliver()

    assert told(received(inbox)) == [("your_turn", listener.player_id)]

    assert game_muter.put(f"/games/{game_id}/notifications", {"muted": False}).status == 200
    assert everywhere_muter.put("/players/me/notifications", {"muted": False}).status == 200
    submit_all(group, game_id)
    feed.deliver()
    assert told(received(inbox)) == sorted(("your_turn", p.player_id) for p in others)
