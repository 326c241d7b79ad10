"""The notification outbox's adapters on moto: the send ledger (and its in-memory double, as one
contract) and the SQS queue per channel with its dead-letter queue."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import boto3
import pytest

from app.aws.dynamodb.send_ledger import DynamoSendLedger
from app.aws.sqs import SqsNotificationQueue
from app.notify.outbox_ports import Claim
from app.notify.preferences import Channel
from tests.fakes.outbox import MemorySendLedger
from tests.support.aws import TABLE, empty_table, forget_clients_and_settings, set_environment

T0 = 1_780_000_000
HOLD = 120


@pytest.fixture(params=["memory", "dynamodb"])
def ledger(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    set_environment(monkeypatch)
    if request.param == "memory":
        yield MemorySendLedger()
    else:
        request.getfixturevalue("_moto")
        yield DynamoSendLedger(TABLE)
        empty_table()
    forget_clients_and_settings()


def test_a_sent_message_is_never_claimed_again(ledger: Any) -> None:
    assert ledger.claim_send("p1", "g:p1:3:your_turn:email", now=T0, claim_seconds=HOLD) is Claim.CLAIMED
    ledger.mark_sent("p1", "g:p1:3:your_turn:email", now=T0 + 1)
    for later in (T0 + 2, T0 + HOLD + 1, T0 + 86_400):
        assert ledger.claim_send("p1", "g:p1:3:your_turn:email", now=later, claim_seconds=HOLD) is Claim.SENT
    ledger.release_send("p1", "g:p1:3:your_turn:email")  # a late failure report changes nothing
    assert ledger.claim_send("p1", "g:p1:3:your_turn:email", now=T0 + 5, claim_seconds=HOLD) is Claim.SENT


def test_an_unsettled_claim_blocks_a_repeat_until_it_expires(ledger: Any) -> None:
    assert ledger.claim_send("p1", "k", now=T0, claim_seconds=HOLD) is Claim.CLAIMED
    assert ledger.claim_send("p1", "k", now=T0 + HOLD - 1, claim_seconds=HOLD) is Claim.BUSY
    assert ledger.claim_send("p1", "k", now=T0 + HOLD, claim_seconds=HOLD) is Claim.CLAIMED


def test_a_released_claim_may_be_taken_at_once_and_keys_are_per_player(ledger: Any) -> None:
    assert ledger.claim_send("p1", "k", now=T0, claim_seconds=HOLD) is Claim.CLAIMED
    ledger.release_send("p1", "k")
    assert ledger.claim_send("p1", "k", now=T0 + 1, claim_seconds=HOLD) is Claim.CLAIMED
    assert ledger.claim_send("p2", "k", now=T0 + 1, claim_seconds=HOLD) is Claim.CLAIMED


@pytest.fixture
def queues(monkeypatch: pytest.MonkeyPatch, _moto: None) -> Iterator[dict[Channel, tuple[str, str]]]:
    set_environment(monkeypatch)
    sqs = boto3.client("sqs")
    urls = {
        channel: (
            sqs.create_queue(QueueName=f"notify-{channel.value}")["QueueUrl"],
            sqs.create_queue(QueueName=f"notify-{channel.value}-dlq")["QueueUrl"],
        )
        for channel in (Channel.EMAIL, Channel.WEB_PUSH)
    }
    yield urls
    for queue, dlq in urls.values():
        sqs.delete_queue(QueueUrl=queue)
        sqs.delete_queue(QueueUrl=dlq)
    forget_clients_and_settings()


def _drain(url: str) -> list[dict[str, Any]]:
    sqs, found = boto3.client("sqs"), []
    while batch := sqs.receive_message(
        QueueUrl=url, MaxNumberOfMessages=10, MessageAttributeNames=["All"]
    ).get("Messages", []):
        found += batch
        for message in batch:
            sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])
    return found


def test_each_channel_has_its_own_queue_and_batches_go_in_tens(
    queues: dict[Channel, tuple[str, str]],
) -> None:
    queue = SqsNotificationQueue({**queues, Channel.DEVICE_PUSH: ("", "")})
    assert queue.configured(Channel.EMAIL)
    assert not queue.configured(Channel.DEVICE_PUSH)
    bodies = [json.dumps({"n": n}) for n in range(13)]
    assert queue.enqueue(Channel.EMAIL, bodies) == []
    assert queue.enqueue(Channel.DEVICE_PUSH, ["x"]) == ["x"]  # no queue: refused, never lost silently
    assert sorted(json.loads(m["Body"])["n"] for m in _drain(queues[Channel.EMAIL][0])) == list(range(13))
    assert _drain(queues[Channel.WEB_PUSH][0]) == []


def test_a_message_waits_out_its_backoff_and_a_dead_letter_says_why(
    queues: dict[Channel, tuple[str, str]],
) -> None:
    queue = SqsNotificationQueue(queues)
    queue.enqueue(Channel.WEB_PUSH, ["a"])
    sqs = boto3.client("sqs")
    (message,) = sqs.receive_message(QueueUrl=queues[Channel.WEB_PUSH][0])["Messages"]
    queue.retry_later(Channel.WEB_PUSH, message["ReceiptHandle"], 600)
    assert sqs.receive_message(QueueUrl=queues[Channel.WEB_PUSH][0]).get("Messages", []) == []
    assert queue.dead_letter(Channel.WEB_PUSH, "a", "gave up after 9 attempts: failed")
    (dead,) = _drain(queues[Channel.WEB_PUSH][1])
    assert dead["Body"] == "a"
    assert dead["MessageAttributes"]["reason"]["StringValue"].startswith("gave up")
    assert not SqsNotificationQueue({Channel.EMAIL: (queues[Channel.EMAIL][0], "")}).dead_letter(
        Channel.EMAIL, "b", "no dead-letter queue"
    )


def test_no_sdk_client_repeats_a_notification_send_by_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.aws import clients
    from app.aws.sns import SnsNotifier

    set_environment(monkeypatch)
    try:
        assert clients.sesv2().meta.config.retries["total_max_attempts"] == 1
        assert clients.sns_once().meta.config.retries["total_max_attempts"] == 1
        assert SnsNotifier("arn:topic").publisher is clients.sns_once()
        assert clients.sns().meta.config.retries.get("total_max_attempts") != 1  # endpoints keep retrying
    finally:
        forget_clients_and_settings()
