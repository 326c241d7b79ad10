"""MailEventsFunction on moto: SES bounce and complaint events suppress the addresses they name."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.aws.dynamodb.mail_ledger import DynamoMailLedger
from app.notify.email.mail_events import addresses_to_suppress
from tests.api.client import FakeContext
from tests.support.aws import TABLE, empty_table, moto_game_table

EVENTS = Path(__file__).resolve().parents[4] / "events" / "mail_events"


@pytest.fixture(scope="module")
def _moto() -> Iterator[None]:
    with moto_game_table(bucket=False):
        yield


@pytest.fixture
def ledger(_moto: None) -> Iterator[DynamoMailLedger]:
    yield DynamoMailLedger(TABLE)
    empty_table()


def sample(name: str) -> dict[str, Any]:
    event: dict[str, Any] = json.loads((EVENTS / f"{name}.json").read_text(encoding="utf-8"))
    return event


def invoke(event: dict[str, Any]) -> Any:
    from handlers.mail_events import lambda_handler

    return lambda_handler(event, FakeContext())


def test_a_permanent_bounce_and_a_complaint_suppress_their_addresses(ledger: DynamoMailLedger) -> None:
    assert invoke(sample("bounce")) == {"suppressed": 1}
    assert invoke(sample("complaint")) == {"suppressed": 1}
    assert ledger.address_suppressed("gone@example.com")
    assert ledger.address_suppressed("Annoyed@Example.com")
    assert not ledger.address_suppressed("someone@example.com")
    assert invoke(sample("bounce")) == {"suppressed": 1}  # a replay changes nothing more


def test_a_transient_bounce_stops_nothing(ledger: DynamoMailLedger) -> None:
    event = sample("bounce")
    event["detail"]["bounce"]["bounceType"] = "Transient"
    assert invoke(event) == {"suppressed": 0}
    assert not ledger.address_suppressed("gone@example.com")


def test_the_same_events_through_an_sns_topic_are_read_too(ledger: DynamoMailLedger) -> None:
    detail = sample("complaint")["detail"]
    records = {"Records": [{"Sns": {"Message": json.dumps(detail)}}, {"Sns": {"Message": "not json"}}]}
    assert invoke(records) == {"suppressed": 1}
    assert ledger.address_suppressed("annoyed@example.com")


def test_an_event_naming_no_address_suppresses_nothing() -> None:
    assert addresses_to_suppress({"eventType": "Delivery"}) == []
    assert addresses_to_suppress({"eventType": "Bounce", "bounce": {"bounceType": "Permanent"}}) == []
    bad = {"eventType": "Complaint", "complaint": {"complainedRecipients": [{"emailAddress": 3}, "x"]}}
    assert addresses_to_suppress(bad) == []
