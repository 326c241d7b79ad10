"""The local stack's clock: the hook in app.core.clock, ``/_local/clock``, the CLI's requests and the
schedules that follow a move."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from app.core import clock as app_clock
from local_stack.clock import (
    CLOCK_PATH,
    MAX_ADVANCE_SECONDS,
    ClockChangeError,
    StackClock,
    cli_request,
    clock_app,
    parse_duration,
    parse_instant,
)
from local_stack.gateway import Gateway
from local_stack.runtime import LambdaContext
from local_stack.schedules import MAX_CATCH_UP, ScheduledFunction, ScheduleRunner, due_runs
from local_stack.stack_env import LOCAL_ONLY_VARIABLES
from local_stack.template import TEMPLATE_PATH, FunctionSpec, ScheduleSpec, api_routes, load_template

WALL = datetime(2026, 12, 4, 9, 30, tzinfo=UTC)


class Wall:
    """A wall clock a test moves by hand."""

    def __init__(self, at: datetime = WALL) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at


@pytest.fixture
def stack_clock(tmp_path: Path) -> Iterator[StackClock]:
    clock = StackClock(tmp_path / "clock.txt", wall=Wall())
    yield clock
    clock.close()


# -- the hook every function reads time through ---------------------------------------------------------


def test_without_the_variable_utc_now_is_the_wall_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(app_clock.LOCAL_CLOCK_FILE, raising=False)
    before = datetime.now(UTC)
    assert before <= app_clock.utc_now() <= datetime.now(UTC)


def test_utc_now_runs_as_far_ahead_as_the_stack_clock_file_says_and_follows_each_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = StackClock(tmp_path / "clock.txt")
    monkeypatch.setenv(app_clock.LOCAL_CLOCK_FILE, str(clock.path))
    try:
        clock.advance(7200)
        ahead = app_clock.utc_now() - datetime.now(UTC)
        assert timedelta(hours=2) - timedelta(seconds=5) < ahead <= timedelta(hours=2)
        clock.advance(86_400)
        assert app_clock.utc_now() - datetime.now(UTC) > timedelta(hours=25, minutes=59)
        clock.reset()
        assert abs(app_clock.utc_now() - datetime.now(UTC)) < timedelta(seconds=5)
    finally:
        clock.close()
    clock.path.write_text("not a number")
    assert abs(app_clock.utc_now() - datetime.now(UTC)) < timedelta(seconds=5)
    clock.path.unlink()
    assert abs(app_clock.utc_now() - datetime.now(UTC)) < timedelta(seconds=5)  # stopped stack: wall


def test_the_template_never_sets_a_variable_only_the_local_stack_may_set() -> None:
    # What keeps a deployed function on the wall clock and off loopback: no Environment names these.
    text = TEMPLATE_PATH.read_text(encoding="utf-8")
    for name in LOCAL_ONLY_VARIABLES:
        assert name not in text
    assert app_clock.LOCAL_CLOCK_FILE in LOCAL_ONLY_VARIABLES


# -- the clock and its changes ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("PT2H", 7200),
        ("P1DT30M", 88_200),
        ("P1W", 604_800),
        ("PT90S", 90),
        ("PT1.5H", 5400),
        ("+2h", 7200),
        ("1d2h30m", 95_400),
        ("45s", 45),
    ],
)
def test_durations_are_iso_8601_without_years_or_months_or_a_shorthand(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "P", "PT", "P1DT", "P1Y", "P2M", "2 hours", "-PT1H", "h", "+"])
def test_anything_else_is_not_a_duration(text: str) -> None:
    with pytest.raises(ClockChangeError) as refused:
        parse_duration(text)
    assert refused.value.code == "clock_duration_invalid"


def test_a_time_needs_its_offset() -> None:
    assert parse_instant("2026-12-05T09:00:00+01:00") == datetime(2026, 12, 5, 8, tzinfo=UTC)
    assert parse_instant("2026-12-05T08:00:00Z") == datetime(2026, 12, 5, 8, tzinfo=UTC)
    for text in ("2026-12-05T08:00:00", "tomorrow", "2026-12-05"):
        with pytest.raises(ClockChangeError) as refused:
            parse_instant(text)
        assert refused.value.code == "clock_time_invalid"


def test_the_clock_moves_forward_is_set_and_reset_and_keeps_its_offset_in_its_file(
    stack_clock: StackClock,
) -> None:
    assert stack_clock.now() == WALL
    assert stack_clock.advance(7200) == WALL + timedelta(hours=2)
    assert float(stack_clock.path.read_text()) == 7200
    target = WALL + timedelta(days=1)
    assert stack_clock.set(target) == target
    assert stack_clock.offset_seconds == 86_400
    with pytest.raises(ClockChangeError) as refused:
        stack_clock.set(WALL + timedelta(hours=3))
    assert (refused.value.status, refused.value.code) == (409, "clock_backwards")
    assert stack_clock.now() == target  # a refused change changes nothing
    for seconds in (0, -60, MAX_ADVANCE_SECONDS + 1, float("nan")):
        with pytest.raises(ClockChangeError):
            stack_clock.advance(seconds)
    assert stack_clock.reset() == WALL
    assert float(stack_clock.path.read_text()) == 0
    stack_clock.close()
    assert not stack_clock.path.exists()


def test_each_move_is_announced(tmp_path: Path) -> None:
    moves: list[datetime] = []
    clock = StackClock(tmp_path / "clock.txt", wall=Wall())
    clock.on_move = lambda: moves.append(clock.now())
    clock.advance(60)
    clock.reset()
    assert moves == [WALL + timedelta(minutes=1), WALL]


# -- /_local/clock -----------------------------------------------------------------------------------------


def call(
    clock: StackClock, method: str, body: Any = None, content_type: str = "application/json"
) -> tuple[int, dict[str, str], dict[str, Any]]:
    raw = b"" if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    response = clock_app(clock)(method, CLOCK_PATH, "", [("Content-Type", content_type)], raw)
    return response.status, dict(response.headers), json.loads(response.body)


def test_get_post_and_delete_answer_the_clock(stack_clock: StackClock) -> None:
    assert call(stack_clock, "GET") == (
        200,
        {"Content-Type": "application/json", "Cache-Control": "no-store"},
        {"now": "2026-12-04T09:30:00.000Z", "wall_clock": "2026-12-04T09:30:00.000Z", "offset_seconds": 0.0},
    )
    assert call(stack_clock, "POST", {"advance": "PT2H"})[2]["now"] == "2026-12-04T11:30:00.000Z"
    assert call(stack_clock, "POST", {"advance_seconds": 1800})[2]["now"] == "2026-12-04T12:00:00.000Z"
    status, _, moved = call(stack_clock, "POST", {"set": "2026-12-05T08:00:00Z"})
    assert (status, moved["now"], moved["offset_seconds"]) == (200, "2026-12-05T08:00:00.000Z", 81_000.0)
    status, _, reset = call(stack_clock, "DELETE")
    assert (status, reset["now"], reset["offset_seconds"]) == (200, "2026-12-04T09:30:00.000Z", 0.0)


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (b"{not json", 400, "clock_request_invalid"),
        ([], 400, "clock_request_invalid"),
        ({}, 400, "clock_request_invalid"),
        ({"advance": "PT1H", "set": "2026-12-05T08:00:00Z"}, 400, "clock_request_invalid"),
        ({"rewind": "PT1H"}, 400, "clock_request_invalid"),
        ({"advance_seconds": "60"}, 400, "clock_request_invalid"),
        ({"advance_seconds": True}, 400, "clock_request_invalid"),
        ({"advance": 60}, 400, "clock_request_invalid"),
        ({"advance": "two hours"}, 422, "clock_duration_invalid"),
        ({"advance_seconds": 0}, 422, "clock_duration_invalid"),
        ({"advance_seconds": -3600}, 422, "clock_duration_invalid"),
        ({"advance": "P400D"}, 422, "clock_duration_invalid"),
        ({"set": "2026-12-05 08:00"}, 422, "clock_time_invalid"),
        ({"set": "2026-12-04T08:00:00Z"}, 409, "clock_backwards"),
    ],
)
def test_a_bad_change_is_a_problem_with_a_stable_code_and_changes_nothing(
    stack_clock: StackClock, body: Any, status: int, code: str
) -> None:
    answered, headers, problem = call(stack_clock, "POST", body)
    assert (answered, problem["code"], problem["status"]) == (status, code, status)
    assert headers["Content-Type"] == "application/problem+json"
    assert stack_clock.offset_seconds == 0


def test_only_json_moves_the_clock_so_a_web_page_cannot_without_asking(stack_clock: StackClock) -> None:
    status, _, problem = call(stack_clock, "POST", {"advance": "PT1H"}, content_type="text/plain")
    assert (status, problem["code"]) == (415, "unsupported_media_type")
    status, headers, problem = call(stack_clock, "PUT", {"advance": "PT1H"})
    assert (status, problem["code"], headers["Allow"]) == (405, "method_not_allowed", "GET, POST, DELETE")
    assert stack_clock.offset_seconds == 0


def test_the_gateway_serves_the_clock_before_any_route_and_the_api_declares_none(
    stack_clock: StackClock,
) -> None:
    template = load_template()
    assert not [route for route in api_routes(template) if route.path.startswith("/_local")]
    gateway = Gateway(api_routes(template), {}, local_apps={CLOCK_PATH: clock_app(stack_clock)})
    json_type = [("Content-Type", "application/json")]
    response = gateway.handle("POST", CLOCK_PATH, json_type, b'{"advance":"PT1H"}')
    assert (response.status, json.loads(response.body)["now"]) == (200, "2026-12-04T10:30:00.000Z")


def test_the_command_line_sends_what_it_is_given() -> None:
    assert cli_request(None) == ("GET", None)
    assert cli_request("reset") == ("DELETE", None)
    assert cli_request("+2h") == ("POST", {"advance": "+2h"})
    assert cli_request("PT30M") == ("POST", {"advance": "PT30M"})
    assert cli_request("2026-12-05T08:00:00Z") == ("POST", {"set": "2026-12-05T08:00:00Z"})


# -- schedules on the stack's clock ------------------------------------------------------------------------


def test_due_runs_are_each_period_a_move_passed_up_to_the_latest_few() -> None:
    hour = timedelta(hours=1)
    assert due_runs(WALL, WALL - timedelta(seconds=1), 3600) == []
    assert due_runs(WALL, WALL, 3600) == [WALL]
    passed = WALL + 2 * hour + timedelta(minutes=5)
    assert due_runs(WALL, passed, 3600) == [WALL, WALL + hour, WALL + 2 * hour]
    many = due_runs(WALL, WALL + 100 * hour, 3600)
    assert len(many) == MAX_CATCH_UP
    assert many[-1] == WALL + 100 * hour


def sweep_job(calls: list[dict[str, Any]], interval: float = 300) -> ScheduledFunction:
    def handler(event: dict[str, Any], _context: LambdaContext) -> None:
        calls.append(event)

    spec = FunctionSpec("SweepFunction", "handlers.sweep.lambda_handler", "src/", "python3.13", 60, 512)
    return ScheduledFunction(spec, ScheduleSpec("NudgeSweep", "rate(5 minutes)"), lambda: handler, interval)


def test_a_move_of_the_clock_runs_a_schedule_for_each_period_it_passed_with_that_periods_time(
    stack_clock: StackClock,
) -> None:
    calls: list[dict[str, Any]] = []
    job = sweep_job(calls)
    runner = ScheduleRunner([job], clock=stack_clock.now)
    runner.loops()  # what start() does before its threads tick: the first run is one period away
    assert runner.tick(job) == 0
    stack_clock.advance(3 * 300 + 10)
    assert runner.tick(job) == 3
    assert [event["time"] for event in calls] == [
        "2026-12-04T09:35:00Z",
        "2026-12-04T09:40:00Z",
        "2026-12-04T09:45:00Z",
    ]
    assert runner.tick(job) == 0  # each period runs once
    stack_clock.reset()  # back on the wall clock: the next run is a period away again, not hours
    assert runner.tick(job) == 0
    assert job.next_due == WALL + timedelta(minutes=5)


def test_the_schedules_tick_fast_enough_to_follow_a_move_at_once() -> None:
    calls: list[dict[str, Any]] = []
    loop = ScheduleRunner([sweep_job(calls, interval=3600)]).loops()[0]
    assert loop.idle_seconds <= 0.25
    assert loop.what == "SweepFunctionNudgeSweep"


def test_a_reset_while_catching_up_stops_the_runs_from_the_future(stack_clock: StackClock) -> None:
    calls: list[dict[str, Any]] = []
    job = sweep_job(calls)
    runner = ScheduleRunner([job], clock=stack_clock.now)
    runner.loops()
    stack_clock.advance(3 * 300 + 10)
    original = job.handler()

    def handler_then_reset(event: dict[str, Any], context: LambdaContext) -> None:
        original(event, context)
        stack_clock.reset()  # DELETE /_local/clock while the first catch-up run is going

    job.handler = lambda: handler_then_reset
    assert runner.tick(job) == 1
    assert [event["time"] for event in calls] == ["2026-12-04T09:35:00Z"]


def test_rates_are_aligned_so_a_move_to_the_hour_runs_that_hours_digest() -> None:
    calls: list[dict[str, Any]] = []
    wall = Wall(datetime(2026, 12, 4, 6, 55, 12, tzinfo=UTC))  # the stack started at 06:55:12
    job = sweep_job(calls, interval=3600)
    runner = ScheduleRunner([job], clock=wall)
    runner.loops()
    assert job.next_due == datetime(2026, 12, 4, 7, tzinfo=UTC)
    wall.at = datetime(2026, 12, 4, 8, 0, 1, tzinfo=UTC)
    assert runner.tick(job) == 2
    assert [event["time"] for event in calls] == ["2026-12-04T07:00:00Z", "2026-12-04T08:00:00Z"]
