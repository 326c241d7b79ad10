"""local_stack.template: reading CloudFormation YAML the way CloudFormation does."""

from __future__ import annotations

import pytest

from local_stack.template import (
    FunctionSpec,
    apply_language_extensions,
    evaluate_conditions,
    functions,
    load_template,
    loads_template,
    parse_rate,
    resolve_refs,
    resolved_environment,
    stack_refs,
)

SNIPPET = """
AWSTemplateFormatVersion: 2010-09-09
Parameters:
  Stage: {Type: String, Default: dev}
  Flag: {Type: String, Default: "false"}
Conditions:
  IsProd: !Equals [!Ref Stage, prod]
  FlagOn: !Equals [!Ref Flag, "true"]
  Either: !Or [!Condition IsProd, !Condition FlagOn]
  Neither: !Not [!Condition Either]
Resources:
  Thing:
    Type: AWS::Test::Thing
    Properties:
      Name: !Sub "dixit-${Stage}"
      Arn: !GetAtt Other.Arn
      ArnList: !GetAtt [Other, Arn]
      Joined: !Join [",", [a, b]]
      Picked: !Select [0, !Split [",", "a,b"]]
      Mapped: !FindInMap [Map, !Ref Stage, Key]
      Encoded: !Base64 text
      Maybe: !If [IsProd, big, !Ref AWS::NoValue]
      Both: !If [Either, yes-please, no-thanks]
      List: [one, !If [FlagOn, two, !Ref AWS::NoValue], three]
"""


def test_short_form_tags_become_long_form_intrinsics() -> None:
    props = loads_template(SNIPPET)["Resources"]["Thing"]["Properties"]
    assert props["Name"] == {"Fn::Sub": "dixit-${Stage}"}
    assert props["Arn"] == {"Fn::GetAtt": ["Other", "Arn"]}
    assert props["ArnList"] == {"Fn::GetAtt": ["Other", "Arn"]}
    assert props["Joined"] == {"Fn::Join": [",", ["a", "b"]]}
    assert props["Picked"] == {"Fn::Select": [0, {"Fn::Split": [",", "a,b"]}]}
    assert props["Mapped"] == {"Fn::FindInMap": ["Map", {"Ref": "Stage"}, "Key"]}
    assert props["Encoded"] == {"Fn::Base64": "text"}
    assert props["Maybe"] == {"Fn::If": ["IsProd", "big", {"Ref": "AWS::NoValue"}]}


def test_dates_stay_strings_as_in_cloudformation() -> None:
    assert loads_template(SNIPPET)["AWSTemplateFormatVersion"] == "2010-09-09"


def test_conditions_are_evaluated_from_parameter_values() -> None:
    template = loads_template(SNIPPET)
    assert evaluate_conditions(template, {"Stage": "dev", "Flag": "false"}) == {
        "IsProd": False,
        "FlagOn": False,
        "Either": False,
        "Neither": True,
    }
    assert evaluate_conditions(template, {"Stage": "prod", "Flag": "false"})["Either"] is True


def test_language_extensions_resolve_if_and_drop_no_value() -> None:
    template = loads_template(SNIPPET)
    dev = apply_language_extensions(template)["Resources"]["Thing"]["Properties"]
    assert "Maybe" not in dev
    assert dev["Both"] == "no-thanks"
    assert dev["List"] == ["one", "three"]
    prod = apply_language_extensions(template, {"Stage": "prod", "Flag": "true"})["Resources"]["Thing"]
    assert prod["Properties"]["Maybe"] == "big"
    assert prod["Properties"]["List"] == ["one", "two", "three"]
    assert "Fn::If" in template["Resources"]["Thing"]["Properties"]["Maybe"]  # the input is untouched


def test_refs_subs_and_getatts_resolve_from_a_mapping() -> None:
    refs = {"Stage": "dev", "Other.Arn": "arn:x", "Table": "t"}
    assert resolve_refs({"Fn::Sub": "dixit-${Stage}"}, refs) == "dixit-dev"
    assert resolve_refs({"Fn::GetAtt": ["Other", "Arn"]}, refs) == "arn:x"
    assert resolve_refs([{"Ref": "Table"}, {"Ref": "Unknown"}], refs) == ["t", {"Ref": "Unknown"}]
    assert resolve_refs({"Fn::Sub": "${Missing}"}, refs) == {"Fn::Sub": "${Missing}"}


@pytest.mark.parametrize(
    ("expression", "seconds"),
    [
        ("rate(5 minutes)", 300),
        ("rate(1 minute)", 60),
        ("rate(2 hours)", 7200),
        ("rate(1 day)", 86400),
        ("rate(30 seconds)", 30),
    ],
)
def test_rate_expressions_become_seconds(expression: str, seconds: float) -> None:
    assert parse_rate(expression) == seconds


@pytest.mark.parametrize("expression", ["cron(0 12 * * ? *)", "rate(0 minutes)", "rate(five minutes)", ""])
def test_other_schedule_expressions_are_rejected(expression: str) -> None:
    with pytest.raises(ValueError, match="rate"):
        parse_rate(expression)


def test_functions_merge_globals_and_read_their_schedules() -> None:
    specs = functions(load_template())
    api, nudge = specs["ApiFunction"], specs["SweepFunction"]
    assert api.handler == "handlers.api.lambda_handler"
    assert api.code_uri == "src/"
    assert api.runtime == "python3.13"
    assert api.schedules == ()
    assert nudge.timeout == 60  # its own Timeout beats the Globals one
    assert [(s.name, s.expression, s.enabled) for s in nudge.schedules] == [
        ("NudgeSweep", "rate(5 minutes)", True)
    ]
    assert functions(load_template(), {"NudgeRate": "rate(1 hour)"})["SweepFunction"].schedules[
        0
    ].expression == ("rate(1 hour)")


def test_the_environment_resolves_against_the_local_resources() -> None:
    template = load_template()
    spec: FunctionSpec = functions(template)["ApiFunction"]
    refs = stack_refs(
        template,
        {
            "GameTable": "t",
            "CardBucket": "b",
            "NudgeTopic": "arn:topic",
            "EmailConfigurationSet": "c",
            "EmailQueue": "q/email",
            "WebPushQueue": "q/web-push",
            "DevicePushQueue": "q/device-push",
            "WebhookQueue": "q/webhooks",
            "LiveQueue": "q/live",
        },
    )
    values, unresolved = resolved_environment(spec, refs)
    # The twin has no WebSocket API: the stack serves the live channel itself and sets its URL
    # (local_stack.live, stack_env).
    assert unresolved == ["LIVE_URL"]
    assert values["WEB_PUSH_QUEUE_URL"] == "q/web-push"  # the nudge route queues its notifications
    # Table talk queues its webhook deliveries and live signals from the request.
    assert (values["WEBHOOK_QUEUE_URL"], values["LIVE_QUEUE_URL"]) == ("q/webhooks", "q/live")
    assert values["TABLE_NAME"] == "t"
    assert values["CARD_BUCKET"] == "b"
    assert values["NUDGE_TOPIC_ARN"] == "arn:topic"
    assert values["EMAIL_CONFIGURATION_SET"] == "c"
    assert values["EMAIL_FROM"] == ""  # the parameter's default: no email
    assert values["POWERTOOLS_SERVICE_NAME"] == "dixit"
    assert values["LOG_LEVEL"] == "INFO"
