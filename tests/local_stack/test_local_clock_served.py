"""The clock of a running stack (`python -m local_stack serve`, 127.0.0.1 only): moved over HTTP or by
the `clock` verb, it is what the API, the sweep and an invoked function all see, and a timeout plays
through in seconds."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from app.core.clock import LOCAL_CLOCK_FILE
from local_stack.stack_env import LOCAL_ONLY_VARIABLES
from tests.e2e.test_e2e_http import HttpClient
from tests.local_stack.test_local_serve import Served, child_env, get, start_serve, stop

WAIT = 90.0  # a bound on waiting for the schedules, never a claim about speed


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    # Two workers, as `make run` starts: the API runs in spawned processes, the sweep in the stack's own.
    running = start_serve(tmp_path_factory.mktemp("clock"), env={"DIXIT_LOCAL_WORKERS": "2"})
    try:
        yield running
    finally:
        assert stop(running.process) == 0, running.logs()


@pytest.fixture(autouse=True)
def wall_clock_again(served: Served) -> Iterator[None]:
    yield
    assert get(f"{served.api_url}/_local/clock", method="DELETE")[0] == 200


def move(served: Served, change: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        f"{served.api_url}/_local/clock",
        data=json.dumps(change).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def command(served: Served, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "local_stack", "clock", *args, "--state-file", str(served.state_file)],
        capture_output=True,
        text=True,
        timeout=60,
        env=child_env(),
        check=False,
    )


def instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_the_clock_moves_over_http_and_by_command_and_the_api_stamps_with_it(served: Served) -> None:
    status, moved = move(served, {"advance": "PT2H"})
    assert status == 200, moved
    assert moved["offset_seconds"] == 7200
    read = command(served)
    assert read.returncode == 0, read.stderr
    assert json.loads(read.stdout)["offset_seconds"] == 7200
    again = command(served, "+30m")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["offset_seconds"] == 9000
    refused = command(served, "2020-01-01T00:00:00Z")
    assert refused.returncode == 1
    assert json.loads(refused.stderr)["code"] == "clock_backwards"

    host = HttpClient("Clock host", base_url=served.api_url).register()
    created = host.post("/games", {"visibility": "private"})
    assert created.status == 201, created.raw
    stamped = instant(created.body["created_at"])
    assert stamped - datetime.now(UTC) > timedelta(hours=2, minutes=29)

    status, _, reset = get(f"{served.api_url}/_local/clock", method="DELETE")
    assert (status, json.loads(reset)["offset_seconds"]) == (200, 0)


def test_the_clock_is_the_stacks_own_path_never_an_api_route(served: Served) -> None:
    status, _, body = get(f"{served.api_url}/openapi.json")
    assert status == 200
    assert "/_local" not in json.dumps(json.loads(body)["paths"])
    status, problem = move(served, {"advance": "soon"})
    assert (status, problem["code"]) == (422, "clock_duration_invalid")


def test_a_timeout_plays_through_when_the_clock_passes_the_deadline(served: Served) -> None:
    clients = [HttpClient(f"Clock {i}", base_url=served.api_url).register() for i in range(4)]
    host = clients[0]
    created = host.post("/games", {"move_timeout_hours": 1, "visibility": "private"})
    assert created.status == 201, created.raw
    game_id, invite = created.body["game_id"], created.body["invite_code"]
    for guest in clients[1:]:
        assert guest.post(f"/games/{game_id}/join", {"invite_code": invite}).status == 200
    assert host.post(f"/games/{game_id}/start").status == 200
    teller_id = host.get(f"/games/{game_id}").body["round"]["storyteller_id"]
    teller = next(c for c in clients if c.player_id == teller_id)
    card = teller.get(f"/games/{game_id}").body["you"]["hand"][0]["card_id"]
    assert teller.post(f"/games/{game_id}/clue", {"card_id": card, "clue": "later"}).status == 200
    silent = next(c for c in clients if c is not teller and c is not host)
    for client in clients:
        if client not in (teller, silent):
            card = client.get(f"/games/{game_id}").body["you"]["hand"][0]["card_id"]
            assert client.post(f"/games/{game_id}/submissions", {"card_ids": [card]}).status == 200
    assert host.get(f"/games/{game_id}").body["phase"] == "submitting"

    assert move(served, {"advance": "PT2H"})[0] == 200

    deadline = time.monotonic() + WAIT  # the sweep runs on its own thread within a tick of the move
    while host.get(f"/games/{game_id}").body["phase"] != "voting" and time.monotonic() < deadline:
        time.sleep(0.2)
    seen = silent.get(f"/games/{game_id}").body
    assert seen["phase"] == "voting", served.logs()[-3000:]
    assert seen["round"]["autoplayed"] == [silent.player_id]


PROBE_TEMPLATE = """
AWSTemplateFormatVersion: "2010-09-09"
Transform: AWS::Serverless-2016-10-31
Resources:
  Probe:
    Type: AWS::Serverless::Function
    Properties:
      Runtime: python3.13
      CodeUri: probe/
      Handler: clock_probe.lambda_handler
"""

PROBE_HANDLER = """
import os

from app.core.clock import utc_now


def lambda_handler(event, context):
    return {"now": utc_now().isoformat(), "env": {name: os.environ.get(name) for name in event["names"]}}
"""


def test_an_invoked_function_runs_on_the_stacks_clock_with_the_stacks_environment(
    served: Served, tmp_path: Path
) -> None:
    (tmp_path / "probe").mkdir()
    (tmp_path / "probe" / "clock_probe.py").write_text(textwrap.dedent(PROBE_HANDLER))
    (tmp_path / "template.yaml").write_text(PROBE_TEMPLATE)
    names = [*LOCAL_ONLY_VARIABLES, "TABLE_NAME", "WEB_BASE_URL"]
    (tmp_path / "event.json").write_text(json.dumps({"names": names}))
    assert move(served, {"advance": "P1D"})[0] == 200
    env = {key: value for key, value in child_env().items() if key not in names}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "local_stack",
            "--template",
            str(tmp_path / "template.yaml"),
            "invoke",
            "Probe",
            "--event",
            str(tmp_path / "event.json"),
            "--state-file",
            str(served.state_file),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)
    assert instant(output["now"]) - datetime.now(UTC) > timedelta(hours=23, minutes=59)
    # What the served functions have, though the probe's template declares none of it: the twin's
    # table, the stack's address, loopback for its receivers, the refused ports and the clock.
    state = served.state()
    assert output["env"] == {name: state["environment"][name] for name in names}
    assert output["env"]["WEBHOOK_ALLOW_LOOPBACK_HTTP"] == "true"
    assert output["env"][LOCAL_CLOCK_FILE] == state["clock_file"]
