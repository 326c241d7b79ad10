"""The bench's references are configured as the app is (issue 36).

A reference that is heavier than the app (a Tracer patching every library, a client validating every
parameter) makes the app's ratio to it look better than it is. The cold-import reference and the
handler floor are built from bench/cold_reference/like_the_app.py; these tests build them and the app
from the bench's own statements, describe what each built (tests/bench/framework_probe.py), and fail
on any difference: when the app's configuration changes, the references must follow.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.bench import framework_probe
from tests.bench.test_bench_rules import BENCH, load

ROOT = BENCH.parent
PROBE = Path(framework_probe.__file__)


def _measure() -> Any:
    sys.path.insert(0, str(BENCH))
    try:
        return load("measure")
    finally:
        sys.path.remove(str(BENCH))


measure = _measure()


def built_by(statement: str) -> dict[str, Any]:
    """What `statement` builds, in a fresh interpreter with the environment the cold import runs in."""
    env = measure.lambda_environment(ROOT / "src", measure.COLD_REFERENCE)
    done = subprocess.run(
        [sys.executable, str(PROBE), statement], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    described: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return described


@pytest.fixture(scope="module")
def app_and_reference() -> tuple[dict[str, Any], dict[str, Any]]:
    return (
        built_by(measure.IMPORTS["handlers.api + DynamoDB client"]),
        built_by(measure.IMPORTS["framework in use + DynamoDB client"]),
    )


def test_the_cold_reference_builds_the_framework_objects_the_app_builds(
    app_and_reference: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    app, reference = app_and_reference
    for part in ("tracer", "logger", "library log levels", "metrics", "resolver"):
        assert reference[part] == app[part], part
    # One of each, configured: a comparison of two empty lists would hold nothing to anything.
    (tracer,) = app["tracer"]
    assert tracer["patch_modules"] == ["botocore"]
    assert tracer["patched"] == ["botocore"]
    assert tracer["disabled"] is False
    (resolver,) = app["resolver"]
    assert resolver["validation"] is True
    assert resolver["cors"]["max_age"] == 600
    assert len(app["logger"]) == len(app["metrics"]) == 1


def test_the_cold_reference_reaches_the_sdk_as_the_app_does_with_the_same_client_config(
    app_and_reference: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    app, reference = app_and_reference
    assert reference["boto3 imported"] == app["boto3 imported"] is False
    assert reference["clients"] == app["clients"]
    (client,) = app["clients"]
    assert client["service"] == "dynamodb"
    assert client["parameter_validation"] is False


def test_the_floor_client_is_configured_as_the_app_client(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.aws import clients

    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    sys.path.insert(0, str(BENCH))
    try:
        floor = load("floor")
    finally:
        sys.path.remove(str(BENCH))
    clients.reset()
    try:
        app_client = framework_probe.client_settings(clients.dynamodb())
    finally:
        clients.reset()
    floor_client = framework_probe.client_settings(floor.raw_client())
    assert floor_client == app_client
    assert floor_client["parameter_validation"] is False
    # Four attempts in all, as clients.py states them.
    assert floor_client["retries"] == {"mode": "standard", "total_max_attempts": 4}
    assert (floor_client["connect_timeout"], floor_client["read_timeout"]) == (1, 2)
