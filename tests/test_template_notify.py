"""template.yaml, delivery part: the table's stream, GameStreamFunction's event source mapping, push setup."""

from __future__ import annotations

import json
from typing import Any

import pytest

from local_stack.template import load_template

from .test_template import of_type, translate


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


@pytest.fixture(scope="module")
def stack(template: dict[str, Any]) -> dict[str, Any]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AWS_DEFAULT_REGION", "us-east-1")
        return translate(template)


def test_the_game_table_streams_new_and_old_images(template: dict[str, Any]) -> None:
    props = template["Resources"]["GameTable"]["Properties"]
    assert props["StreamSpecification"] == {"StreamViewType": "NEW_AND_OLD_IMAGES"}


def test_notify_function_reads_the_stream_with_partial_failures_bisect_and_bounded_retries(
    stack: dict[str, Any],
) -> None:
    function = stack["Resources"]["GameStreamFunction"]["Properties"]
    assert function["Handler"] == "handlers.game_stream.lambda_handler"
    (mapping,) = [
        m
        for m in of_type(stack, "AWS::Lambda::EventSourceMapping").values()
        if m["Properties"]["FunctionName"] == {"Ref": "GameStreamFunction"}
    ]
    props = mapping["Properties"]
    assert props["EventSourceArn"] == {"Fn::GetAtt": ["GameTable", "StreamArn"]}
    assert props["FunctionName"] == {"Ref": "GameStreamFunction"}
    assert props["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert props["BisectBatchOnFunctionError"] is True
    assert 0 < props["MaximumRetryAttempts"] <= 10
    assert props["MaximumRecordAgeInSeconds"] > 0
    assert props["DestinationConfig"]["OnFailure"]["Destination"] == {
        "Fn::GetAtt": ["NotifyFailureQueue", "Arn"]
    }
    (only,) = props["FilterCriteria"]["Filters"]
    assert json.loads(only["Pattern"]) == {"dynamodb": {"Keys": {"sk": {"S": ["STATE"]}}}}
    managed = stack["Resources"]["GameStreamFunctionRole"]["Properties"]["ManagedPolicyArns"]
    assert any("AWSLambdaDynamoDBExecutionRole" in arn for arn in managed)


def test_push_platform_applications_are_parameters_empty_by_default_given_to_the_api(
    template: dict[str, Any],
) -> None:
    names = {
        "ApnsPlatformApplicationArn": "APNS_PLATFORM_APPLICATION_ARN",
        "ApnsSandboxPlatformApplicationArn": "APNS_SANDBOX_PLATFORM_APPLICATION_ARN",
        "FcmPlatformApplicationArn": "FCM_PLATFORM_APPLICATION_ARN",
    }
    env = template["Resources"]["ApiFunction"]["Properties"]["Environment"]["Variables"]
    for parameter, variable in names.items():
        assert template["Parameters"][parameter]["Default"] == ""
        assert env[variable] == {"Ref": parameter}


def _actions_on(stack: dict[str, Any], role: str, suffix: str) -> set[str]:
    actions: set[str] = set()
    for policy in stack["Resources"][role]["Properties"]["Policies"]:
        for statement in policy["PolicyDocument"]["Statement"]:
            resource = json.dumps(statement["Resource"])
            if suffix in resource:
                listed = statement["Action"]
                actions |= {listed} if isinstance(listed, str) else set(listed)
    return actions


def test_only_the_api_registers_push_endpoints_and_both_may_push_and_remove_them(
    stack: dict[str, Any],
) -> None:
    assert _actions_on(stack, "ApiFunctionRole", ":app/*") == {"sns:CreatePlatformEndpoint"}
    assert {"sns:Publish", "sns:DeleteEndpoint"} <= _actions_on(stack, "ApiFunctionRole", ":endpoint/*")
    assert _actions_on(stack, "GameStreamFunctionRole", ":endpoint/*") == {
        "sns:Publish",
        "sns:DeleteEndpoint",
    }
    assert _actions_on(stack, "GameStreamFunctionRole", ":app/*") == set()
