"""The local API Gateway: HTTP requests become REST proxy events, results become HTTP responses.

The handler is injected, so these tests run the real HTTP server (127.0.0.1, port 0) with a fake
handler that records the events it receives.
"""

from __future__ import annotations

import base64
import http.client
import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from local_stack.gateway import Gateway, RouteTable
from local_stack.runtime import HandlerUnavailableError, LambdaContext, lazy_handler
from local_stack.schedules import ScheduledFunction, ScheduleRunner, interval_for, scheduled_event
from local_stack.server import GatewayServer
from local_stack.template import (
    FunctionSpec,
    Route,
    ScheduleSpec,
    api_cors_headers,
    api_routes,
    functions,
    load_template,
)

TEMPLATE = load_template()


class Recorder:
    """A fake Lambda handler: remembers each (event, context) and answers with ``self.result``."""

    def __init__(self) -> None:
        self.calls: list[tuple[dict[str, Any], Any]] = []
        self.result: Any = {"statusCode": 200, "headers": {"Content-Type": "application/json"}, "body": "{}"}

    def __call__(self, event: dict[str, Any], context: Any) -> Any:
        self.calls.append((event, context))
        if isinstance(self.result, Exception):
            raise self.result
        return self.result

    @property
    def event(self) -> dict[str, Any]:
        return self.calls[-1][0]


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


def start_server(resolver: Callable[[], Any]) -> GatewayServer:
    gateway = Gateway(
        api_routes(TEMPLATE),
        resolver,
        functions=functions(TEMPLATE),
        stage="dev",
        cors_headers=api_cors_headers(TEMPLATE),
    )
    return GatewayServer(gateway, "127.0.0.1", 0).start()


@pytest.fixture
def server(recorder: Recorder) -> Iterator[GatewayServer]:
    running = start_server(lambda: recorder)
    try:
        yield running
    finally:
        running.stop()


class Reply:
    def __init__(self, response: http.client.HTTPResponse) -> None:
        self.status = response.status
        self.headers = response.getheaders()
        self.body = response.read()

    def header(self, name: str) -> str | None:
        return next((value for key, value in self.headers if key.lower() == name.lower()), None)

    def json(self) -> Any:
        return json.loads(self.body)


def request(
    server: GatewayServer,
    method: str,
    target: str,
    *,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> Reply:
    connection = http.client.HTTPConnection(server.host, server.port, timeout=30)
    try:
        connection.request(method, target, body=body, headers=headers or {})
        return Reply(connection.getresponse())
    finally:
        connection.close()


def test_a_request_becomes_a_rest_proxy_event_for_the_template_resource(
    server: GatewayServer, recorder: Recorder
) -> None:
    body = json.dumps({"card_id": "base-017", "clue": "the last door"}).encode()
    request(
        server,
        "POST",
        "/games/g_42/clue?debug=1&tag=a&tag=b",
        body=body,
        headers={"Authorization": "Bearer t0k", "Content-Type": "application/json", "X-Multi": "one"},
    )
    event = recorder.event
    assert event["resource"] == "/games/{game_id}/clue"
    assert event["path"] == "/games/g_42/clue"
    assert event["httpMethod"] == "POST"
    assert event["pathParameters"] == {"game_id": "g_42"}
    assert event["queryStringParameters"] == {"debug": "1", "tag": "b"}
    assert event["multiValueQueryStringParameters"] == {"debug": ["1"], "tag": ["a", "b"]}
    assert event["headers"]["Authorization"] == "Bearer t0k"
    assert event["multiValueHeaders"]["X-Multi"] == ["one"]
    assert json.loads(event["body"]) == {"card_id": "base-017", "clue": "the last door"}
    assert event["isBase64Encoded"] is False
    assert event["stageVariables"] is None
    context = event["requestContext"]
    assert context["resourcePath"] == "/games/{game_id}/clue"
    assert context["httpMethod"] == "POST"
    assert context["path"] == "/dev/games/g_42/clue"
    assert context["stage"] == "dev"
    assert context["identity"]["sourceIp"] == "127.0.0.1"
    assert len(context["requestId"]) == 36
    assert abs(context["requestTimeEpoch"] - time.time() * 1000) < 60_000


def test_a_request_without_query_params_or_body_has_nulls_like_api_gateway(
    server: GatewayServer, recorder: Recorder
) -> None:
    request(server, "GET", "/players/me")
    event = recorder.event
    assert event["resource"] == "/players/me"
    assert event["queryStringParameters"] is None
    assert event["multiValueQueryStringParameters"] is None
    assert event["pathParameters"] is None
    assert event["body"] is None


def test_literal_segments_win_over_path_parameters() -> None:
    table = RouteTable([Route("GET", "/games/{game_id}", "F", "A"), Route("GET", "/games/open", "F", "B")])
    match = table.match("GET", "/games/open")
    assert match is not None
    assert match.route.path == "/games/open"
    assert match.path_parameters == {}
    other = table.match("GET", "/games/g_1")
    assert other is not None
    assert other.path_parameters == {"game_id": "g_1"}


def test_path_parameters_are_url_decoded_and_trailing_slashes_ignored(
    server: GatewayServer, recorder: Recorder
) -> None:
    request(server, "GET", "/decks/base%20set/cards/")
    assert recorder.event["pathParameters"] == {"deck_id": "base set"}
    assert recorder.event["resource"] == "/decks/{deck_id}/cards"


def test_the_context_looks_like_the_lambda_runtime_one(server: GatewayServer, recorder: Recorder) -> None:
    request(server, "GET", "/decks")
    context = recorder.calls[-1][1]
    assert context.function_name == "ApiFunction"
    assert context.memory_limit_in_mb == 512
    assert context.invoked_function_arn == "arn:aws:lambda:us-east-1:123456789012:function:ApiFunction"
    assert len(context.aws_request_id) == 36
    assert 0 < context.get_remaining_time_in_millis() <= 10_000


def test_the_handler_result_becomes_the_http_response(server: GatewayServer, recorder: Recorder) -> None:
    recorder.result = {
        "statusCode": 201,
        "headers": {"Content-Type": "application/json", "ETag": '"v1"'},
        "multiValueHeaders": {"Set-Cookie": ["a=1", "b=2"], "ETag": ['"v2"']},
        "body": json.dumps({"player_id": "p_1"}),
        "isBase64Encoded": False,
    }
    reply = request(server, "POST", "/players", body=b'{"name": "Ada"}')
    assert reply.status == 201
    assert reply.json() == {"player_id": "p_1"}
    assert reply.header("Content-Type") == "application/json"
    assert [value for key, value in reply.headers if key == "Set-Cookie"] == ["a=1", "b=2"]
    assert [value for key, value in reply.headers if key == "ETag"] == ['"v2"']  # multiValueHeaders win
    assert reply.header("Content-Length") == str(len(reply.body))


def test_base64_encoded_results_are_decoded(server: GatewayServer, recorder: Recorder) -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\xff"
    recorder.result = {
        "statusCode": 200,
        "headers": {"Content-Type": "image/png"},
        "body": base64.b64encode(png).decode(),
        "isBase64Encoded": True,
    }
    reply = request(server, "GET", "/docs")
    assert reply.body == png
    assert reply.header("Content-Type") == "image/png"


def test_binary_request_bodies_arrive_base64_encoded(server: GatewayServer, recorder: Recorder) -> None:
    request(server, "POST", "/games", body=b"\xff\xfe\x00")
    assert recorder.event["isBase64Encoded"] is True
    assert base64.b64decode(recorder.event["body"]) == b"\xff\xfe\x00"


def test_an_unknown_route_is_a_404_problem_that_never_reaches_the_handler(
    server: GatewayServer, recorder: Recorder
) -> None:
    reply = request(server, "GET", "/admin/secrets")
    assert reply.status == 404
    assert reply.header("Content-Type") == "application/problem+json"
    problem = reply.json()
    assert problem["type"] == "about:blank"
    assert problem["title"] == "Not Found"
    assert problem["status"] == 404
    assert problem["code"] == "route_not_found"
    assert "/admin/secrets" in problem["detail"]
    assert recorder.calls == []


def test_a_wrong_method_on_a_known_path_is_a_405_problem_with_allow(
    server: GatewayServer, recorder: Recorder
) -> None:
    reply = request(server, "DELETE", "/games/g_1")
    assert reply.status == 405
    assert reply.header("Content-Type") == "application/problem+json"
    assert reply.header("Allow") == "GET"
    problem = reply.json()
    assert problem["status"] == 405
    assert problem["title"] == "Method Not Allowed"
    assert problem["code"] == "method_not_allowed"
    assert recorder.calls == []
    assert request(server, "PUT", "/games").header("Allow") == "GET, POST"


def test_a_preflight_answers_with_the_template_cors_headers(
    server: GatewayServer, recorder: Recorder
) -> None:
    reply = request(server, "OPTIONS", "/games/g_1/votes")
    assert reply.status == 200
    assert reply.header("Access-Control-Allow-Origin") == "*"
    assert "Idempotency-Key" in (reply.header("Access-Control-Allow-Headers") or "")
    assert recorder.calls == []


def test_a_handler_that_cannot_be_imported_yet_is_a_500_problem() -> None:
    running = start_server(lazy_handler("handlers.does_not_exist_yet.lambda_handler"))
    try:
        reply = request(running, "GET", "/decks")
    finally:
        running.stop()
    assert reply.status == 500
    assert reply.header("Content-Type") == "application/problem+json"
    assert reply.json()["code"] == "handler_unavailable"


def test_a_handler_that_raises_or_answers_nonsense_is_a_502_problem(
    server: GatewayServer, recorder: Recorder
) -> None:
    recorder.result = RuntimeError("boom")
    reply = request(server, "GET", "/decks")
    assert (reply.status, reply.json()["code"]) == (502, "handler_error")
    recorder.result = {"body": "no status code"}
    reply = request(server, "GET", "/decks")
    assert (reply.status, reply.json()["code"]) == (502, "malformed_lambda_response")


def test_lazy_handlers_import_on_first_use_and_report_what_is_missing() -> None:
    resolve = lazy_handler("json.dumps")
    assert resolve() is json.dumps
    with pytest.raises(HandlerUnavailableError, match="no_such_module"):
        lazy_handler("no_such_module.handler")()
    with pytest.raises(HandlerUnavailableError, match="not_there"):
        lazy_handler("json.not_there")()


def test_concurrent_requests_are_all_served_but_run_the_handler_one_at_a_time() -> None:
    """Like one Lambda execution environment: handlers keep per-invocation state in module globals."""
    active, peak = [0], [0]
    lock = threading.Lock()

    def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
        time.sleep(0.02)
        with lock:
            active[0] -= 1
        return {"statusCode": 200, "body": "{}"}

    running = start_server(lambda: handler)
    statuses: list[int] = []
    try:
        threads = [
            threading.Thread(target=lambda: statuses.append(request(running, "GET", "/decks").status))
            for _ in range(8)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(10)
    finally:
        running.stop()
    assert statuses == [200] * 8
    assert peak[0] == 1


# -- schedules ------------------------------------------------------------------------------------------


def test_the_scheduled_event_is_an_eventbridge_scheduled_event() -> None:
    event = scheduled_event("SweepFunctionNudgeSweep")
    assert event["detail-type"] == "Scheduled Event"
    assert event["source"] == "aws.events"
    assert event["resources"] == ["arn:aws:events:us-east-1:123456789012:rule/SweepFunctionNudgeSweep"]
    assert event["detail"] == {}
    assert event["time"].endswith("Z")


def test_schedules_use_the_template_rate_unless_overridden() -> None:
    schedule = ScheduleSpec("NudgeSweep", "rate(5 minutes)")
    assert interval_for(schedule, None) == 300
    assert interval_for(schedule, 0.5) == 0.5
    assert interval_for(ScheduleSpec("Odd", "cron(0 12 * * ? *)"), None) == 300  # logged, not fatal


def test_the_schedule_runner_invokes_the_function_on_its_rate_and_stops() -> None:
    calls: list[tuple[dict[str, Any], LambdaContext]] = []

    def handler(event: dict[str, Any], context: LambdaContext) -> None:
        calls.append((event, context))

    spec = FunctionSpec("SweepFunction", "handlers.sweep.lambda_handler", "src/", "python3.13", 60, 512)
    job = ScheduledFunction(spec, ScheduleSpec("NudgeSweep", "rate(5 minutes)"), lambda: handler, 0.05)
    runner = ScheduleRunner([job]).start()
    try:
        deadline = time.monotonic() + 30  # generous: a bound on waiting, not on speed
        while len(calls) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        runner.stop()
    assert len(calls) >= 2
    event, context = calls[0]
    assert event["resources"] == ["arn:aws:events:us-east-1:123456789012:rule/SweepFunctionNudgeSweep"]
    assert context.function_name == "SweepFunction"
    count = len(calls)
    time.sleep(0.15)
    assert len(calls) == count  # stopped means stopped


def test_a_scheduled_function_that_cannot_be_imported_is_skipped_not_fatal() -> None:
    spec = FunctionSpec("SweepFunction", "nope.handler", "src/", "python3.13", 60, 512)
    job = ScheduledFunction(
        spec, ScheduleSpec("NudgeSweep", "rate(1 minute)"), lazy_handler("nope.handler"), 60
    )
    assert ScheduleRunner([job]).run_once(job) is None
