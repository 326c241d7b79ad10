"""The scheduled sweep, driven through handlers.nudge.lambda_handler with moto SNS and SQS."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest

from app.settings import get_settings

from .client import Client, FakeContext


def scheduled_event(at: datetime) -> dict[str, Any]:
    return {
        "version": "0",
        "id": "5b4f0a3e-0000-4000-8000-000000000000",
        "detail-type": "Scheduled Event",
        "source": "aws.events",
        "account": "123456789012",
        "time": at.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "region": "us-east-1",
        "resources": ["arn:aws:events:us-east-1:123456789012:rule/NudgeSchedule"],
        "detail": {},
    }


def sweep_at(at: datetime) -> dict[str, Any]:
    from handlers.nudge import lambda_handler

    result: dict[str, Any] = lambda_handler(scheduled_event(at), FakeContext())
    return result


@pytest.fixture
def inbox_queue(aws: None, monkeypatch: pytest.MonkeyPatch) -> str:
    """An SQS queue subscribed to the nudge topic, standing in for the players' phones."""
    sns, sqs = boto3.client("sns"), boto3.client("sqs")
    topic_arn = sns.create_topic(Name="dixit-nudges-test")["TopicArn"]
    queue_url = sqs.create_queue(QueueName="nudges")["QueueUrl"]
    queue_arn = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["QueueArn"])["Attributes"][
        "QueueArn"
    ]
    sns.subscribe(
        TopicArn=topic_arn, Protocol="sqs", Endpoint=queue_arn, Attributes={"RawMessageDelivery": "true"}
    )
    monkeypatch.setenv("NUDGE_TOPIC_ARN", topic_arn)
    get_settings.cache_clear()
    return queue_url


def received(queue_url: str) -> list[dict[str, Any]]:
    messages = (
        boto3.client("sqs").receive_message(QueueUrl=queue_url, MaxNumberOfMessages=10).get("Messages", [])
    )
    return [json.loads(m["Body"]) for m in messages]


def started_game(players: list[Client]) -> dict[str, Any]:
    host = players[0]
    game_id = host.post("/games", {}).body["game_id"]
    for guest in players[1:3]:
        assert guest.post(f"/games/{game_id}/join").status == 200
    started = host.post(f"/games/{game_id}/start")
    assert started.status == 200, started.raw
    body: dict[str, Any] = started.body
    return body


def test_a_sweep_before_any_deadline_nudges_nobody(players: list[Client], inbox_queue: str) -> None:
    started_game(players)
    report = sweep_at(datetime.now(UTC))
    assert report["games_due"] == 0
    assert received(inbox_queue) == []


def test_a_stalled_storyteller_is_nudged_once_per_deadline(players: list[Client], inbox_queue: str) -> None:
    game = started_game(players)
    storyteller = game["round"]["storyteller_id"]
    two_days_later = datetime.now(UTC) + timedelta(days=2)

    report = sweep_at(two_days_later)

    assert report["games_due"] == 1
    assert report["nudges_sent"] == 1
    messages = received(inbox_queue)
    assert [(m["player_id"], m["game_id"]) for m in messages] == [(storyteller, game["game_id"])]
    # The deadline moved on: the same sweep time finds nothing more to do.
    assert sweep_at(two_days_later)["games_due"] == 0


def test_every_player_still_to_submit_is_nudged(players: list[Client], inbox_queue: str) -> None:
    game = started_game(players)
    by_id = {p.player_id: p for p in players}
    storyteller = by_id[game["round"]["storyteller_id"]]
    view = storyteller.get(f"/games/{game['game_id']}").body
    card = view["you"]["hand"][0]["card_id"]
    assert storyteller.post(f"/games/{game['game_id']}/clue", {"card_id": card, "clue": "late"}).status == 200

    sweep_at(datetime.now(UTC) + timedelta(days=2))

    messages = received(inbox_queue)
    assert sorted(m["player_id"] for m in messages) == sorted(
        p.player_id for p in players[:3] if p is not storyteller
    )
    assert {m["phase"] for m in messages} == {"submitting"}


def test_lobbies_and_finished_games_are_never_nudged(players: list[Client], inbox_queue: str) -> None:
    players[0].post("/games", {})
    assert sweep_at(datetime.now(UTC) + timedelta(days=30))["games_due"] == 0
