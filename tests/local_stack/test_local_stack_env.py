"""One environment for the stack's functions: what `serve` applies is what `invoke` rebuilds from the
state file, and what only the local stack sets never reaches `sam local`'s env.json."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.core.clock import LOCAL_CLOCK_FILE
from local_stack.invoke import invoke
from local_stack.sam_env import env_vars
from local_stack.stack_env import (
    LOCAL_ONLY_VARIABLES,
    default_resources,
    environment_from_state,
    stack_environment,
)
from local_stack.template import apply_language_extensions, functions, load_template, loads_template

TEMPLATE = apply_language_extensions(load_template())
SPECS = functions(TEMPLATE)
TWIN, API = "http://127.0.0.1:45678", "http://127.0.0.1:3000"


def served_environment(environ: dict[str, str]) -> dict[str, str]:
    """What `serve` applies (stack.py), into ``environ`` instead of the process's."""
    return stack_environment(
        TEMPLATE,
        SPECS,
        resources=default_resources(),
        parameters={"WebBaseUrl": API, "WebPushVapidParameter": "/dixit/local/web-push-vapid"},
        aws_endpoint_url=TWIN,
        api_url=API,
        clock_file="/tmp/dixit-local-clock-x.txt",
    ).apply(environ)


def state(environment: dict[str, str]) -> dict[str, Any]:
    return {
        "pid": os.getpid(),
        "aws_endpoint_url": TWIN,
        "api_url": API,
        "region": "us-east-1",
        "resources": default_resources(),
        "parameters": {"WebBaseUrl": API, "WebPushVapidParameter": "/dixit/local/web-push-vapid"},
        "environment": environment,
        "clock_file": "/tmp/dixit-local-clock-x.txt",
    }


def test_invoke_rebuilds_exactly_what_serve_applied() -> None:
    served = served_environment({"LOG_LEVEL": "DEBUG"})
    rebuilt: dict[str, str] = {}
    environment_from_state(TEMPLATE, SPECS, state(served)).apply(rebuilt)
    assert rebuilt == served
    assert served["LOG_LEVEL"] == "DEBUG"  # a value the developer started the stack with is kept
    assert served["WEBHOOK_ALLOW_LOOPBACK_HTTP"] == "true"  # the local push service is on loopback
    assert served["WEBHOOK_REFUSED_LOOPBACK_PORTS"] == "45678,3000"
    assert served[LOCAL_CLOCK_FILE] == "/tmp/dixit-local-clock-x.txt"
    assert served["WEB_PUSH_VAPID_PARAMETER"] == "/dixit/local/web-push-vapid"


def test_the_twins_names_win_over_leftovers_and_other_values_do_not() -> None:
    environ = {"TABLE_NAME": "someone-elses", LOCAL_CLOCK_FILE: "/elsewhere", "POLL_SECONDS": "7"}
    applied = served_environment(environ)
    assert applied["TABLE_NAME"] == default_resources()["GameTable"]
    assert applied[LOCAL_CLOCK_FILE] == "/tmp/dixit-local-clock-x.txt"
    assert applied["POLL_SECONDS"] == "7"


def test_sam_local_gets_the_template_s_variables_only(tmp_path: Path) -> None:
    served = served_environment({})
    written = env_vars(TEMPLATE, state(served))
    for variables in written.values():
        assert not set(LOCAL_ONLY_VARIABLES) & set(variables)


def test_invoke_refuses_the_state_file_of_a_stack_that_is_gone(tmp_path: Path) -> None:
    ended = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    state_file = tmp_path / "state.json"
    state_file.write_text(json.dumps({**state({}), "pid": int(ended.stdout)}))
    (tmp_path / "event.json").write_text("{}")
    out, err = io.StringIO(), io.StringIO()
    code = invoke("SweepFunction", str(tmp_path / "event.json"), state_file=state_file, out=out, err=err)
    assert code == 2
    assert "is not running" in err.getvalue()


@pytest.fixture(autouse=True)
def _no_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    # invoke sets the process environment once it runs a function; these tests stop before that.
    for name in ("AWS_ENDPOINT_URL", *LOCAL_ONLY_VARIABLES):
        monkeypatch.delenv(name, raising=False)


QUEUE_FRAGMENT = """
Resources:
  PushDeliveryFunction:
    Type: AWS::Serverless::Function
    Properties:
      Handler: push.handler
      Environment:
        Variables:
          PUSH_QUEUE_URL: !Ref PushQueue
          PUSH_QUEUE_ARN: !GetAtt PushQueue.Arn
          PUSH_DLQ_NAME: !GetAtt PushDeadLetterQueue.QueueName
          TOPIC_NAME: !GetAtt Topic.TopicName
          TABLE_ARN: !Sub "${Table.Arn}/index/*"
  PushQueue: {Type: AWS::SQS::Queue}
  PushDeadLetterQueue: {Type: AWS::SQS::Queue}
  Topic: {Type: AWS::SNS::Topic}
  Table: {Type: AWS::DynamoDB::Table}
"""


def test_a_function_may_name_the_stacks_resources_by_getatt_too() -> None:
    template = loads_template(QUEUE_FRAGMENT)
    resources = {
        "PushQueue": "http://127.0.0.1:45678/123456789012/dixit-push-queue-local",
        "PushDeadLetterQueue": "http://127.0.0.1:45678/123456789012/dixit-push-dead-letter-queue-local",
        "Topic": "arn:aws:sns:us-east-1:123456789012:dixit-topic-local",
        "Table": "dixit-table-local",
    }
    built = stack_environment(template, functions(template), resources=resources, parameters={})
    assert {name: built.values[name] for name in QUEUE_VARIABLES} == {
        "PUSH_QUEUE_URL": resources["PushQueue"],
        "PUSH_QUEUE_ARN": "arn:aws:sqs:us-east-1:123456789012:dixit-push-queue-local",
        "PUSH_DLQ_NAME": "dixit-push-dead-letter-queue-local",
        "TOPIC_NAME": "dixit-topic-local",
        "TABLE_ARN": "arn:aws:dynamodb:us-east-1:123456789012:table/dixit-table-local/index/*",
    }
    assert set(QUEUE_VARIABLES) <= built.forced  # the twin's names win over leftovers


QUEUE_VARIABLES = ("PUSH_QUEUE_URL", "PUSH_QUEUE_ARN", "PUSH_DLQ_NAME", "TOPIC_NAME", "TABLE_ARN")


def test_local_webhooks_may_call_none_of_the_ports_the_stack_listens_on() -> None:
    environment = stack_environment(
        TEMPLATE,
        SPECS,
        resources=default_resources(),
        parameters={},
        aws_endpoint_url=TWIN,
        api_url=API,
        live_url="ws://127.0.0.1:3001",
        live_endpoint_url=f"{API}/_local/live",
    ).apply({})
    assert sorted(environment["WEBHOOK_REFUSED_LOOPBACK_PORTS"].split(",")) == ["3000", "3001", "45678"]
