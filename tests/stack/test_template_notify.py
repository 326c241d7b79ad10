"""template.yaml, delivery part: the stream the consumer reads, the items it is given, push setup.

How the stream is consumed (partial batch failures, bisection, bounded retries, an on-failure queue with
an alarm) is policy: E9333, E9335 and E9336 of policies/cfn_lint.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from policies.stack import translate

from local_stack.template import load_template

from .test_template import allows, consumers, of_type, the_api_function


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


@pytest.fixture(scope="module")
def stack(template: dict[str, Any]) -> dict[str, Any]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AWS_DEFAULT_REGION", "us-east-1")
        return translate(template)


def test_the_stream_consumer_gets_old_and_new_images_of_game_state_items_only(stack: dict[str, Any]) -> None:
    from app.aws.dynamodb.items import game_key

    ((consumer, table),) = consumers(stack, "AWS::DynamoDB::Table").items()
    # It compares each game's old and new state.
    stream = stack["Resources"][table]["Properties"]["StreamSpecification"]
    assert stream == {"StreamViewType": "NEW_AND_OLD_IMAGES"}
    (mapping,) = [
        m["Properties"]
        for m in of_type(stack, "AWS::Lambda::EventSourceMapping").values()
        if m["Properties"]["FunctionName"] == {"Ref": consumer}
    ]
    (only,) = mapping["FilterCriteria"]["Filters"]
    state_sort_key = game_key("g_1")["sk"]["S"]
    assert json.loads(only["Pattern"]) == {"dynamodb": {"Keys": {"sk": {"S": [state_sort_key]}}}}


def test_push_platform_applications_are_parameters_empty_by_default_given_to_the_api(
    template: dict[str, Any],
) -> None:
    names = {
        "ApnsPlatformApplicationArn": "APNS_PLATFORM_APPLICATION_ARN",
        "ApnsSandboxPlatformApplicationArn": "APNS_SANDBOX_PLATFORM_APPLICATION_ARN",
        "FcmPlatformApplicationArn": "FCM_PLATFORM_APPLICATION_ARN",
    }
    env = template["Resources"][the_api_function(template)]["Properties"]["Environment"]["Variables"]
    for parameter, variable in names.items():
        assert template["Parameters"][parameter]["Default"] == ""
        assert env[variable] == {"Ref": parameter}


def _actions_on(stack: dict[str, Any], function: str, suffix: str) -> set[str]:
    role = stack["Resources"][function]["Properties"]["Role"]["Fn::GetAtt"][0]
    actions: set[str] = set()
    for policy in stack["Resources"][role]["Properties"]["Policies"]:
        for statement in policy["PolicyDocument"]["Statement"]:
            resource = json.dumps(statement["Resource"])
            if suffix in resource:
                listed = statement["Action"]
                actions |= {listed} if isinstance(listed, str) else set(listed)
    return actions


def test_only_the_api_registers_push_endpoints_and_only_the_outbox_pushes_and_publishes(
    stack: dict[str, Any], template: dict[str, Any]
) -> None:
    api, outbox = the_api_function(template), "NotifyDeliveryFunction"
    (consumer,) = consumers(stack, "AWS::DynamoDB::Table")
    assert _actions_on(stack, api, ":app/*") == {"sns:CreatePlatformEndpoint"}
    assert {"sns:Publish", "sns:DeleteEndpoint"} <= _actions_on(stack, api, ":endpoint/*")
    assert _actions_on(stack, outbox, ":endpoint/*") == {"sns:Publish", "sns:DeleteEndpoint"}
    assert _actions_on(stack, outbox, ":app/*") == set()
    # The stream consumer and the sweep only queue: they reach no push endpoint and no topic.
    (topic,) = of_type(stack, "AWS::SNS::Topic")
    for queuing in (consumer, "SweepFunction"):
        assert _actions_on(stack, queuing, ":endpoint/*") == set(), queuing
        assert not allows(stack, queuing, "sns:Publish", topic), queuing
    assert allows(stack, outbox, "sns:Publish", topic)


def test_email_is_off_by_default_and_only_the_functions_that_mail_are_told_the_sender_and_set(
    template: dict[str, Any],
) -> None:
    assert template["Parameters"]["EmailFrom"]["Default"] == ""
    # The API mails codes and nudges; the stream, the sweep and the digest notification mail (#20).
    senders = {
        the_api_function(template),
        "DigestFunction",
        "NotifyDeliveryFunction",  # the outbox's email queue (the stream and the sweep only queue)
    }
    for name, resource in of_type(template, "AWS::Serverless::Function").items():
        variables = (resource["Properties"].get("Environment") or {}).get("Variables") or {}
        if name in senders:
            assert variables["EMAIL_FROM"] == {"Ref": "EmailFrom"}, name
            assert variables["EMAIL_CONFIGURATION_SET"] == {"Ref": "EmailConfigurationSet"}, name
        else:
            assert "EMAIL_FROM" not in variables, name
            assert "EMAIL_CONFIGURATION_SET" not in variables, name


def test_bounces_and_complaints_feed_the_suppression_list(template: dict[str, Any]) -> None:
    (configuration_set,) = of_type(template, "AWS::SES::ConfigurationSet").values()
    props = configuration_set["Properties"]
    assert sorted(props["SuppressionOptions"]["SuppressedReasons"]) == ["BOUNCE", "COMPLAINT"]
    assert props["ReputationOptions"] == {"ReputationMetricsEnabled": True}


def _ses_statements(stack: dict[str, Any], function: str) -> list[dict[str, Any]]:
    role = stack["Resources"][function]["Properties"]["Role"]["Fn::GetAtt"][0]
    return [
        statement
        for policy in stack["Resources"][role]["Properties"]["Policies"]
        for statement in policy["PolicyDocument"]["Statement"]
        if "ses:" in json.dumps(statement["Action"])
    ]


def test_only_the_api_sends_mail_from_the_sender_in_the_configuration_set(template: dict[str, Any]) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AWS_DEFAULT_REGION", "us-east-1")
        off, on = translate(template), translate(template, EmailFrom="dixit@example.com")
    api = the_api_function(template)
    assert _ses_statements(off, api) == []
    (send, suppression) = _ses_statements(on, api)
    assert send["Action"] == "ses:SendEmail"
    resources = json.dumps(send["Resource"])
    assert ":identity/${EmailFrom}" in resources  # the address, or its domain (whichever is verified)
    assert ":identity/${EmailFromDomain}" in resources
    assert ":configuration-set/${EmailConfigurationSet}" in resources
    # The suppression list is the account's: IAM authorizes reading it on no resource (E9310 allows that).
    assert suppression == {
        "Sid": "ReadTheSuppressionList",
        "Effect": "Allow",
        "Action": "ses:GetSuppressedDestination",
        "Resource": "*",
    }
    others = [name for name in of_type(on, "AWS::Lambda::Function") if name != api]
    assert others
    assert all(_ses_statements(on, name) == [] for name in others)
