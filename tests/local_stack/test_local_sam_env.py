"""`make sam-env`: env.json for `sam local`, written from the state file of the running local stack."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from local_stack import LOCAL_NAMES
from local_stack.__main__ import main
from local_stack.sam_env import NoRunningStack, env_vars, for_container
from local_stack.stack_env import default_resources
from local_stack.template import apply_language_extensions, functions, load_template


@pytest.fixture
def state() -> dict[str, Any]:
    # What `serve` writes (tools/local_stack/stack.py _write_state), with one value it chose itself.
    return {
        "aws_endpoint_url": "http://127.0.0.1:45678",
        "api_url": "http://127.0.0.1:3000",
        "region": "us-east-1",
        "resources": default_resources(),
        "environment": {"POLL_SECONDS": "5", "WEB_BASE_URL": "http://127.0.0.1:3000"},
    }


def test_every_function_gets_every_variable_its_template_declares(state: dict[str, Any]) -> None:
    template = apply_language_extensions(load_template())
    written = env_vars(template, state)
    specs = functions(template)
    assert set(written) == set(specs)
    for logical_id, spec in specs.items():
        assert set(spec.environment) <= set(written[logical_id]), logical_id
        assert all(isinstance(value, str) for value in written[logical_id].values())


def test_the_twin_and_its_resources_are_named_as_a_container_reaches_them(state: dict[str, Any]) -> None:
    written = env_vars(apply_language_extensions(load_template()), state)["ApiFunction"]
    assert written["AWS_ENDPOINT_URL"] == "http://host.docker.internal:45678"
    assert written["TABLE_NAME"] == LOCAL_NAMES["GameTable"]
    assert written["POLL_SECONDS"] == "5"  # what the running stack used, not the template's default
    assert written["WEB_BASE_URL"] == "http://host.docker.internal:3000"


def test_a_host_network_container_keeps_loopback() -> None:
    assert for_container("http://127.0.0.1:45678", "127.0.0.1") == "http://127.0.0.1:45678"
    assert for_container("https://dynamodb.us-east-1.amazonaws.com", "h") == (
        "https://dynamodb.us-east-1.amazonaws.com"
    )


def test_without_a_running_stack_it_says_so_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "env.json"
    assert main(["sam-env", "--state-file", str(tmp_path / "none.json"), "--out", str(out)]) == 2
    assert not out.exists()
    with pytest.raises(NoRunningStack):
        env_vars({}, {"resources": {}})


def test_the_command_writes_the_file_sam_reads(tmp_path: Path, state: dict[str, Any]) -> None:
    state_file, out = tmp_path / "state.json", tmp_path / "env.json"
    state_file.write_text(json.dumps(state), encoding="utf-8")
    assert main(["sam-env", "--state-file", str(state_file), "--out", str(out)]) == 0
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["SweepFunction"]["AWS_ENDPOINT_URL"] == "http://host.docker.internal:45678"
