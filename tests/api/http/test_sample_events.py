"""Every sample event in events/ is accepted by the handler it is written for.

"Accepted" means the handler parsed and routed it and judged the request itself: no 5xx, no unknown
route and no schema complaint. With the placeholder token the answer is 401; with a real token (and a
real game where the path names one) the route does its job.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.webhooks import ssrf
from tests.support.mail import recorded_mail

from ..client import Client, FakeContext
from ..helpers import lobby

EVENTS = Path(__file__).resolve().parents[3] / "events"
API_EVENTS = sorted((EVENTS / "api").glob("*.json"))
NOT_ACCEPTED = {"route_not_found", "validation_error", "malformed_json", "internal_error"}
SAMPLE_GAME = "g_0123456789abcdef"
# On a fresh table these routes do their job by refusing: no push application is configured, and
# the sample's device was never registered, nor the sample's session opened.
EXPECTED_REFUSALS = {
    "put_device": (501, "push_not_configured"),
    "delete_device": (404, "device_not_found"),
    "end_session": (404, "session_not_found"),
    "revoke_personal_token": (404, "personal_token_not_found"),
    # No code was mailed for the sample's: the routes judge the code, which is all a sample can ask.
    "confirm_email": (422, "code_invalid"),
    "verify_sign_in": (422, "code_invalid"),
    # The samples' token is signed by no deployment's secret: the routes judge it, changing nothing.
    "preview_unsubscribe": (422, "invalid_unsubscribe_token"),
    "unsubscribe": (422, "invalid_unsubscribe_token"),
    # No VAPID key parameter is named on the fresh stack: Web Push is off.
    "get_web_push_key": (501, "web_push_not_configured"),
    "put_web_push_subscription": (501, "web_push_not_configured"),
    "delete_web_push_subscription": (404, "web_push_subscription_not_found"),
    # The sample's message was never written, nor its player registered: the routes look them up.
    "report_message": (404, "message_not_found"),
    "hide_message": (404, "message_not_found"),
    "mute_player": (404, "player_not_found"),
    "block_player": (404, "player_not_found"),
    # The sample's code was never given, nor its app approved (the token endpoint answers RFC 6749's
    # `error`, not a problem's `code`).
    "issue_oauth_token": (400, "invalid_grant"),
    "revoke_app": (404, "app_not_found"),
}
SAMPLE_WEBHOOK = "wh_0123456789abcdef"


def invoke_api(event: dict[str, Any]) -> tuple[int, Any]:
    from handlers.api import lambda_handler

    result = lambda_handler(event, FakeContext())
    body = result.get("body") or ""
    return result["statusCode"], json.loads(body) if body.startswith(("{", "[")) else body


def _code(body: dict[str, Any]) -> Any:
    return body.get("code") or body.get("error")


def assert_accepted(status: int, body: Any) -> None:
    assert status < 500, body
    if isinstance(body, dict):
        assert body.get("code") not in NOT_ACCEPTED, body


@pytest.mark.parametrize("path", API_EVENTS, ids=lambda path: path.stem)
def test_each_api_event_is_accepted_as_it_is(aws: None, path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    recorded_mail(monkeypatch)  # the email routes send mail (moto's SES keeps no whole message)
    event = json.loads(path.read_text(encoding="utf-8"))
    status, body = invoke_api(event)
    needs_token = "Authorization" in event["headers"]
    if not needs_token and path.stem in EXPECTED_REFUSALS:
        assert (status, _code(body)) == EXPECTED_REFUSALS[path.stem]
        return
    assert_accepted(status, body)
    if needs_token:
        assert status == 401, body


@pytest.mark.parametrize("path", API_EVENTS, ids=lambda path: path.stem)
def test_each_api_event_does_its_job_with_a_real_token_and_game(
    players: list[Client], path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ssrf, "system_resolver", lambda host, port: ["93.184.215.14"])  # no DNS in tests
    recorded_mail(monkeypatch)
    game_id = lobby(players[:3])
    hook = players[0].post(
        "/players/me/webhooks", {"url": "https://hooks.example.com/x", "events": ["turn.owed"]}
    )
    text = path.read_text(encoding="utf-8").replace(SAMPLE_GAME, game_id)
    text = text.replace(SAMPLE_WEBHOOK, hook.body["webhook_id"])
    event = json.loads(text)
    if "Authorization" in event["headers"]:
        event["headers"]["Authorization"] = f"Bearer {players[0].token}"
        event["multiValueHeaders"]["Authorization"] = [f"Bearer {players[0].token}"]
    status, body = invoke_api(event)
    if path.stem in EXPECTED_REFUSALS:
        assert (status, _code(body)) == EXPECTED_REFUSALS[path.stem]
        return
    assert_accepted(status, body)
    # Lobby moves by the host succeed; round moves are refused by the rules (409), not by the handler;
    # revoking the token answers 204 with no body; an app's authorization request, 302 to the web client.
    assert status in (200, 201, 202, 204, 302, 409), body


def test_the_scheduled_event_is_accepted_by_the_nudge_handler(aws: None) -> None:
    from handlers.sweep import lambda_handler

    event = json.loads((EVENTS / "sweep" / "scheduled.json").read_text(encoding="utf-8"))
    report = lambda_handler(event, FakeContext())
    assert report["swept_at"].startswith(event["time"][:19])
    assert report["games_due"] == 0


def test_the_stream_event_is_accepted_by_the_notify_handler_and_tells_the_first_storyteller(
    aws: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ..sns_inbox import make_topic, received, subscribe_queue
    from ..stream import invoke_notify

    inbox = subscribe_queue(make_topic(monkeypatch), "sample-stream")
    event = json.loads((EVENTS / "game_stream" / "stream.json").read_text(encoding="utf-8"))

    assert invoke_notify(event) == {"batchItemFailures": []}

    (message,) = received(inbox)
    assert message.attributes == {
        "kind": "your_turn",
        "player_id": "p_00000000000000a1",
        "game_id": SAMPLE_GAME,
    }


def test_the_rematch_stream_event_tells_the_finished_games_other_players_of_the_lobby(
    aws: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.aws.dynamodb.games import DynamoGameStore
    from app.core.records import GameRecord, Visibility
    from dixit import engine
    from dixit.bots import RandomBot
    from dixit.moves import Join, Start
    from dixit.settings import Settings
    from dixit.state import Phase
    from dixit.views import view_for
    from tests.support.aws import TABLE

    from ..sns_inbox import make_topic, received, subscribe_queue
    from ..stream import invoke_notify

    # The finished game the sample's lobby rematches, with the lobby's host among its players.
    seats = ["p_00000000000000a1", "p_00000000000000b2", "p_00000000000000c3"]
    state = engine.new_game(
        SAMPLE_GAME, host_id=seats[0], host_name="Ada", settings=Settings.build(target_score=1), seed=5
    )
    for pid in seats[1:]:
        state = engine.apply(state, Join(pid, pid), now=0).state
    state = engine.apply(state, Start(seats[0]), now=0).state
    bots = {pid: RandomBot(pid, n) for n, pid in enumerate(seats)}
    while state.phase is not Phase.FINISHED:
        pid = state.awaited()[0]
        move = bots[pid].choose(view_for(state, pid))
        assert move is not None
        state = engine.apply(state, move, now=0).state
    stamp = "2026-11-30T12:30:00.000+00:00"
    DynamoGameStore(TABLE).create_game(GameRecord(state, Visibility.PRIVATE, "c0de", stamp, stamp))
    inbox = subscribe_queue(make_topic(monkeypatch), "sample-rematch")
    event = json.loads((EVENTS / "game_stream" / "rematch.json").read_text(encoding="utf-8"))

    assert invoke_notify(event) == {"batchItemFailures": []}

    told = sorted(m.attributes["player_id"] for m in received(inbox) if m.attributes["kind"] == "rematch")
    assert told == seats[1:]


def test_the_sqs_event_is_accepted_by_the_webhook_handler(aws: None) -> None:
    from handlers.webhook_delivery import lambda_handler

    event = json.loads((EVENTS / "webhook_delivery" / "sqs.json").read_text(encoding="utf-8"))
    # Its webhook does not exist here: the delivery is dropped, which is a success for the batch.
    assert lambda_handler(event, FakeContext()) == {"batchItemFailures": []}
