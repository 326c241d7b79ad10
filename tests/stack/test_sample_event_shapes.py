"""events/: sample events for `sam local invoke -e` and `python -m local_stack invoke`.

Here only their shape and their routes are checked; whether each handler accepts them is tested with
the handlers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest

from app.games import state_codec
from handlers.route_table import ROUTES as TABLE
from local_stack.gateway import RouteTable
from local_stack.template import TEMPLATE_PATH, api_routes, load_template

EVENTS = TEMPLATE_PATH.parent / "events"
API_EVENTS = sorted((EVENTS / "api").glob("*.json"))
ROUTES = api_routes(load_template())

PROXY_KEYS = {
    "resource",
    "path",
    "httpMethod",
    "headers",
    "multiValueHeaders",
    "queryStringParameters",
    "multiValueQueryStringParameters",
    "pathParameters",
    "stageVariables",
    "requestContext",
    "body",
    "isBase64Encoded",
}
# What needs no token is the route table's to say.
PUBLIC_ROUTES = {(route.method, route.path) for route in TABLE if route.public}


def load(path: Path) -> dict[str, Any]:
    event: Any = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(event, dict)
    return event


def test_there_are_api_events_and_a_scheduled_event() -> None:
    assert len(API_EVENTS) >= len(ROUTES)
    assert (EVENTS / "sweep" / "scheduled.json").is_file()


@pytest.mark.parametrize("path", API_EVENTS, ids=lambda path: path.stem)
def test_each_api_event_is_a_complete_rest_proxy_event(path: Path) -> None:
    event = load(path)
    assert set(event) >= PROXY_KEYS
    context = event["requestContext"]
    assert context["resourcePath"] == event["resource"]
    assert context["httpMethod"] == event["httpMethod"]
    assert context["path"] == f"/{context['stage']}{event['path']}"
    assert context["identity"]["sourceIp"]
    assert isinstance(context["requestTimeEpoch"], int)
    assert {name: [value] for name, value in event["headers"].items()} == event["multiValueHeaders"]
    if event["body"] is not None:
        assert event["isBase64Encoded"] is False
        if event["headers"].get("Content-Type") == "application/x-www-form-urlencoded":
            assert parse_qs(event["body"], strict_parsing=True)  # RFC 8058's one-click unsubscribe
        else:
            json.loads(event["body"])


@pytest.mark.parametrize("path", API_EVENTS, ids=lambda path: path.stem)
def test_each_api_event_targets_a_route_declared_in_the_template(path: Path) -> None:
    event = load(path)
    declared = {(route.method, route.path) for route in ROUTES}
    assert (event["httpMethod"], event["resource"]) in declared
    match = RouteTable(ROUTES).match(event["httpMethod"], event["path"])
    assert match is not None
    assert match.route.path == event["resource"]
    assert (match.path_parameters or None) == event["pathParameters"]


@pytest.mark.parametrize("path", API_EVENTS, ids=lambda path: path.stem)
def test_events_for_routes_that_need_a_player_carry_a_bearer_placeholder(path: Path) -> None:
    event = load(path)
    if (event["httpMethod"], event["resource"]) in PUBLIC_ROUTES:
        assert "Authorization" not in event["headers"]
    else:
        assert event["headers"]["Authorization"] == "Bearer placeholder"


def test_every_route_has_a_sample_event() -> None:
    covered = {(load(path)["httpMethod"], load(path)["resource"]) for path in API_EVENTS}
    assert covered == {(route.method, route.path) for route in ROUTES}


def test_the_scheduled_event_is_what_eventbridge_sends_the_nudge_function() -> None:
    event = load(EVENTS / "sweep" / "scheduled.json")
    assert event["detail-type"] == "Scheduled Event"
    assert event["source"] == "aws.events"
    assert event["version"] == "0"
    assert event["detail"] == {}
    assert event["resources"][0].startswith("arn:aws:events:")
    assert event["time"].endswith("Z")


def test_the_stream_event_is_what_dynamodb_streams_sends_the_notify_function() -> None:
    (record,) = load(EVENTS / "game_stream" / "stream.json")["Records"]
    assert record["eventSource"] == "aws:dynamodb"
    assert record["eventName"] == "MODIFY"
    assert record["eventSourceARN"].startswith("arn:aws:dynamodb:")
    assert "/stream/" in record["eventSourceARN"]
    change = record["dynamodb"]
    assert change["StreamViewType"] == "NEW_AND_OLD_IMAGES"
    assert change["Keys"] == {key: change["NewImage"][key] for key in ("pk", "sk")}
    assert change["Keys"]["sk"] == {"S": "STATE"}  # what the template's filter lets through
    # The state is stored compressed (app.games.state_codec): base64 text in the event, as Lambda sends B.
    assert state_codec.unpack(change["OldImage"]["state"]["B"]).phase.value == "lobby"
    assert state_codec.unpack(change["NewImage"]["state"]["B"]).phase.value == "storytelling"


def test_the_rematch_stream_event_inserts_the_lobby_its_finished_game_derives() -> None:
    from app.games.rematch_ids import rematch_id

    (record,) = load(EVENTS / "game_stream" / "rematch.json")["Records"]
    assert record["eventName"] == "INSERT"
    change = record["dynamodb"]
    assert "OldImage" not in change
    assert change["Keys"] == {key: change["NewImage"][key] for key in ("pk", "sk")}
    lobby = state_codec.unpack(change["NewImage"]["state"]["B"])
    assert lobby.phase.value == "lobby"
    assert lobby.game_id == rematch_id(change["NewImage"]["rematch_of"]["S"])


def test_the_sqs_event_is_what_the_queue_hands_the_webhook_function() -> None:
    from app.webhooks.dispatch import WebhookMessage

    (record,) = load(EVENTS / "webhook_delivery" / "sqs.json")["Records"]
    assert record["eventSource"] == "aws:sqs"
    assert record["eventSourceARN"].startswith("arn:aws:sqs:")
    assert int(record["attributes"]["ApproximateReceiveCount"]) >= 1
    message = WebhookMessage.from_json(record["body"])
    assert message.webhook_id.startswith("wh_")
    assert message.delivery_id.startswith("dlv_")


@pytest.mark.parametrize("channel", ["email", "web_push"])
def test_the_sqs_events_are_what_the_outbox_queues_hand_the_delivery_function(channel: str) -> None:
    from app.notify.outbox import OutboxMessage

    (record,) = load(EVENTS / "notify_delivery" / f"{channel}.json")["Records"]
    assert record["eventSource"] == "aws:sqs"
    message = OutboxMessage.from_json(record["body"])
    assert message.channel.value == channel
    assert message.send_id.startswith(message.notification.dedupe_id)
    assert (message.subscription_id is not None) == (channel == "web_push")
