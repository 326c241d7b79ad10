"""`python -m local_stack serve` and `invoke` as a developer runs them: real subprocesses, 127.0.0.1 only.

Every process started here is stopped by its fixture or test, with timeouts, even when a test fails.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from local_stack import LOCAL_NAMES
from local_stack.__main__ import main

STARTUP_TIMEOUT = 120.0  # only stops a hung test; a loaded 2-core machine can take a while
STOP_TIMEOUT = 30.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def child_env() -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("AWS_")}
    env["PYTHONUNBUFFERED"] = "1"
    # This checkout's code, as pytest's own pythonpath gives the tests: the venv's editable install may
    # point at another checkout (worktrees sharing one .venv).
    repo = Path(__file__).resolve().parents[2]
    env["PYTHONPATH"] = os.pathsep.join([str(repo / "src"), str(repo / "tools"), env.get("PYTHONPATH", "")])
    return env


@dataclass
class Served:
    process: subprocess.Popen[bytes]
    api_url: str
    state_file: Path
    stdout: Path
    stderr: Path

    def state(self) -> dict[str, Any]:
        state: Any = json.loads(self.state_file.read_text(encoding="utf-8"))
        assert isinstance(state, dict)
        return state

    def logs(self) -> str:
        return self.stdout.read_text(errors="replace") + self.stderr.read_text(errors="replace")


def get(url: str, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    """Status, headers (lower-case names) and body; HTTP errors are answers too."""
    req = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(req, timeout=10) as response:
            return response.status, lower(response.headers.items()), response.read()
    except urllib.error.HTTPError as error:
        return error.code, lower(error.headers.items()), error.read()


def start_serve(directory: Path, env: dict[str, str] | None = None) -> Served:
    port, aws_port = free_port(), free_port()
    state_file = directory / "state.json"
    stdout, stderr = directory / "serve.out", directory / "serve.err"
    with stdout.open("wb") as out, stderr.open("wb") as err:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "local_stack",
                "serve",
                "--port",
                str(port),
                "--aws-port",
                str(aws_port),
                "--state-file",
                str(state_file),
                "--seed-decks",
                "base",
            ],
            stdout=out,
            stderr=err,
            env={**child_env(), **(env or {})},
        )
    served = Served(process, f"http://127.0.0.1:{port}", state_file, stdout, stderr)
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while True:
        if process.poll() is not None:
            raise AssertionError(f"serve exited with {process.returncode}:\n{served.logs()}")
        try:
            get(f"{served.api_url}/decks")  # any answer at all: the gateway is up
            # The gateway answers before the rest starts (streams, schedules, queues); the stack is
            # ready once its banner, printed after the state file is written, says where things are.
            ready = "lost on exit" in served.stdout.read_text(errors="replace")
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            ready = False
        if ready:
            return served
        if time.monotonic() > deadline:
            stop(process)
            raise AssertionError(f"serve was not ready within {STARTUP_TIMEOUT} s:\n{served.logs()}")
        time.sleep(0.1)


def stop(process: subprocess.Popen[bytes], sig: int = signal.SIGINT) -> int | None:
    """Signal the process and wait; kill it if it does not stop. Returns its exit code (None: killed)."""
    if process.poll() is None:
        process.send_signal(sig)
        try:
            return process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(STOP_TIMEOUT)
            return None
    return process.returncode


def lower(headers: Any) -> dict[str, str]:
    return {name.lower(): value for name, value in headers}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    running = start_serve(tmp_path_factory.mktemp("serve"))
    try:
        yield running
    finally:
        stop(running.process)


def test_serve_answers_declared_routes_and_refuses_the_others(served: Served) -> None:
    status, _, _ = get(f"{served.api_url}/decks")
    assert status in (200, 500)  # 500 problem+json only if the API's handler cannot be imported
    status, headers, body = get(f"{served.api_url}/no/such/route")
    assert status == 404
    assert headers["content-type"] == "application/problem+json"
    assert json.loads(body)["code"] == "route_not_found"
    status, _, body = get(f"{served.api_url}/decks", method="DELETE")
    assert status == 405
    assert json.loads(body)["code"] == "method_not_allowed"


def test_serve_prints_where_things_are_and_that_state_is_lost_on_exit(served: Served) -> None:
    state = served.state()
    banner = served.stdout.read_text()
    assert served.api_url in banner
    assert state["aws_endpoint_url"] in banner
    assert "lost on exit" in banner
    assert state["api_url"] == served.api_url
    assert state["aws_endpoint_url"].startswith("http://127.0.0.1:")
    assert state["resources"]["GameTable"] == LOCAL_NAMES["GameTable"]
    assert state["environment"]["TABLE_NAME"] == LOCAL_NAMES["GameTable"]
    assert state["environment"]["CARD_BUCKET"] == LOCAL_NAMES["CardBucket"]
    assert state["environment"]["NUDGE_TOPIC_ARN"] == state["resources"]["NudgeTopic"]


def test_serve_seeds_placeholder_card_art_into_the_twin(served: Served) -> None:
    import boto3

    s3 = boto3.client(
        "s3",
        endpoint_url=served.state()["aws_endpoint_url"],
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    bucket = LOCAL_NAMES["CardBucket"]
    # Seeding runs in the background, deck by deck; a cold art cache draws the base deck first. The bound
    # only stops a hung test.
    deadline = time.monotonic() + 180
    while True:
        listed = s3.list_objects_v2(Bucket=bucket, Prefix="cards/base/base-084.webp")
        if listed["KeyCount"] or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    image = s3.get_object(Bucket=bucket, Key="cards/base/base-084.webp")
    assert image["ContentType"] == "image/webp"
    body = image["Body"].read()
    assert body[8:12] == b"WEBP"
    # The bucket is private, as in AWS: only signed (or presigned) requests read it.
    url = f"{served.state()['aws_endpoint_url']}/{bucket}/cards/base/base-001.webp"
    assert get(url)[0] == 403
    status, headers, _ = get(
        s3.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": "cards/base/base-001.webp"})
    )
    assert status == 200, headers
    assert headers.get("content-type") == "image/webp", headers


PROBE_TEMPLATE = """
AWSTemplateFormatVersion: "2010-09-09"
Transform: AWS::Serverless-2016-10-31
Globals:
  Function:
    Runtime: python3.13
    CodeUri: probe/
    Environment:
      Variables:
        TABLE_NAME: !Ref GameTable
        GREETING: hello
Resources:
  Probe:
    Type: AWS::Serverless::Function
    Properties:
      Handler: probe_handler.lambda_handler
      MemorySize: 256
  GameTable:
    Type: AWS::DynamoDB::Table
    Properties:
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions: [{AttributeName: pk, AttributeType: S}]
      KeySchema: [{AttributeName: pk, KeyType: HASH}]
"""

PROBE_HANDLER = """
import os

import boto3


def lambda_handler(event, context):
    print("a handler log line")
    if event.get("fail"):
        raise ValueError("asked to fail")
    table = boto3.client("dynamodb").describe_table(TableName=os.environ["TABLE_NAME"])["Table"]
    return {
        "table": table["TableName"],
        "greeting": os.environ["GREETING"],
        "endpoint": os.environ["AWS_ENDPOINT_URL"],
        "function": context.function_name,
        "memory": context.memory_limit_in_mb,
        "event": event,
    }
"""


@pytest.fixture
def probe_template(tmp_path: Path) -> Path:
    (tmp_path / "probe").mkdir()
    (tmp_path / "probe" / "probe_handler.py").write_text(textwrap.dedent(PROBE_HANDLER))
    template = tmp_path / "template.yaml"
    template.write_text(PROBE_TEMPLATE)
    return template


def run_invoke(
    template: Path, state_file: Path, event: dict[str, Any], directory: Path
) -> subprocess.CompletedProcess[str]:
    event_file = directory / "event.json"
    event_file.write_text(json.dumps(event))
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "local_stack",
            "--template",
            str(template),
            "invoke",
            "Probe",
            "--event",
            str(event_file),
            "--state-file",
            str(state_file),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=child_env(),
        check=False,
    )


def test_invoke_runs_a_template_function_against_the_running_twin(
    served: Served, probe_template: Path, tmp_path: Path
) -> None:
    result = run_invoke(probe_template, served.state_file, {"hello": "world"}, tmp_path)
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)  # stdout holds the result only; handler logs go to stderr
    assert output == {
        "table": LOCAL_NAMES["GameTable"],
        "greeting": "hello",
        "endpoint": served.state()["aws_endpoint_url"],
        "function": "Probe",
        "memory": 256,
        "event": {"hello": "world"},
    }
    assert "a handler log line" in result.stderr


def test_invoke_reports_a_handler_error_like_lambda(
    served: Served, probe_template: Path, tmp_path: Path
) -> None:
    result = run_invoke(probe_template, served.state_file, {"fail": True}, tmp_path)
    assert result.returncode == 1
    error = json.loads(result.stdout)
    assert error["errorType"] == "ValueError"
    assert error["errorMessage"] == "asked to fail"
    assert error["stackTrace"]


def test_invoke_without_a_running_twin_says_how_to_start_one(
    probe_template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = tmp_path / "event.json"
    event.write_text("{}")
    code = main(
        [
            "--template",
            str(probe_template),
            "invoke",
            "Probe",
            "-e",
            str(event),
            "--state-file",
            str(tmp_path / "none"),
        ]
    )
    assert code == 2
    assert "local_stack serve" in capsys.readouterr().err


def test_invoke_of_an_unknown_function_lists_the_known_ones(
    probe_template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["--template", str(probe_template), "invoke", "Nope", "-e", "x.json"])
    assert code == 2
    assert "Probe" in capsys.readouterr().err


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_serve_stops_cleanly_on_a_signal_and_removes_its_state_file(
    tmp_path: Path, sig: signal.Signals
) -> None:
    running = start_serve(tmp_path)
    assert running.state_file.exists()
    code = stop(running.process, sig)
    assert code == 0, running.logs()
    assert not running.state_file.exists()
    assert "local stack stopped" in running.stdout.read_text()
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(f"{running.api_url}/decks", timeout=2)


def test_the_gateway_serves_official_card_art_and_nothing_else_from_the_bucket(served: Served) -> None:
    deadline = time.monotonic() + 180  # seeding runs in the background; the bound only stops a hung test
    while True:
        status, headers, body = get(f"{served.api_url}/_local/card-art/cards/base/base-001.webp")
        if status == 200 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert (status, headers.get("content-type"), body[8:12]) == (200, "image/webp", b"WEBP")
    for key in ("uploads/d_5f2a9c/d_5f2a9c-001", "cards/d_5f2a9c/d_5f2a9c-001.webp", "cards/base/../x"):
        assert get(f"{served.api_url}/_local/card-art/{key}")[0] == 404
    assert served.state()["environment"]["CARD_IMAGE_BASE_URL"] == f"{served.api_url}/_local/card-art"


def test_the_stack_refuses_web_pages_foreign_hosts_and_local_webhooks_to_its_ports(served: Served) -> None:
    twin = served.state()["aws_endpoint_url"]
    request = urllib.request.Request(f"{twin}/moto-api/reset", method="POST", headers={"Origin": "null"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 403
    rebound = urllib.request.Request(f"{served.api_url}/_local/mail", headers={"Host": "evil.example"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(rebound, timeout=10)
    assert (refused.value.code, json.loads(refused.value.read())["code"]) == (403, "host_refused")
    environment = served.state()["environment"]
    ports = environment["WEBHOOK_REFUSED_LOOPBACK_PORTS"].split(",")
    own = [twin, served.api_url, environment["LIVE_URL"]]  # every port the stack listens on
    assert sorted(ports) == sorted(url.rsplit(":", 1)[1] for url in own)
