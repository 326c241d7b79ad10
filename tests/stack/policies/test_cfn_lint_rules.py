"""policies/cfn_lint: the stack meets every rule, and every rule fails when the stack breaks it.

A rule that cannot fail checks nothing, so each has at least one broken stack below (the compliant stack
of compliant_stack.yaml with one thing changed) on which it, and only it, reports.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from policies.cfn_lint import lint, policy_ids
from policies.stack import translate

from local_stack.template import load_template, loads_template

COMPLIANT = loads_template((Path(__file__).parent / "compliant_stack.yaml").read_text(encoding="utf-8"))

# cfn-lint's built-in rules also run on the translated stack. What they find there that is the translation's
# doing, not the template's: AWS::LanguageExtensions has already resolved every Fn::If on a condition, and
# SAM's SQSPollerPolicy lists two batch operations that are not IAM actions of their own.
TRANSLATION_ARTIFACTS = {
    ("W8001", "Condition ApiKeyRequired not used"),
    ("W8001", "Condition EmailWanted not used"),
    ("W8001", "Condition PublicApiUrlGiven not used"),
    ("W8001", "Condition AlarmTopicWanted not used"),
    ("W8001", "Condition SnapStartWanted not used"),
    ("W3037", "'changemessagevisibilitybatch' is not one of"),
    ("W3037", "'deletemessagebatch' is not one of"),
}


def _found(matches: list[Any]) -> list[str]:
    return [
        f"{match.rule.id} {match.message}"
        for match in matches
        if not any(
            match.rule.id == rule and match.message.startswith(text) for rule, text in TRANSLATION_ARTIFACTS
        )
    ]


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


@pytest.mark.parametrize(
    "parameters",
    [
        {},
        {"RequireApiKey": "true"},
        {"CreateCardCdn": "true", "CardImageBaseUrl": "https://cdn.example"},
        {"EmailFrom": "dixit@example.com"},
        {"AlarmTopicArn": "arn:aws:sns:us-east-1:123456789012:pager"},
        {"SnapStart": "true"},
    ],
    ids=["defaults", "api-key", "card-cdn", "email", "alarm-topic", "snapstart"],
)
def test_the_stack_cloudformation_runs_meets_every_policy(
    template: dict[str, Any], parameters: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AWS_DEFAULT_REGION", os.environ.get("AWS_DEFAULT_REGION") or "us-east-1")
    # cfn-lint's own rules on the default stack only: with a condition resolved to true, the translation
    # leaves SAM's DependsOn (W3005) and Refs to conditional resources (W1001) that CloudFormation resolves.
    assert _found(lint(translate(template, **parameters), builtin_rules=not parameters)) == []


def test_the_compliant_stack_meets_every_policy() -> None:
    assert _found(lint(COMPLIANT, builtin_rules=False)) == []


# --------------------------------------------------------------------------------------------------
# One broken stack at a time


def _at(stack: dict[str, Any], path: str) -> tuple[Any, Any]:
    *parents, last = [int(part) if part.isdigit() else part for part in path.split("/")]
    node: Any = stack
    for part in parents:
        node = node[part]
    return node, last


def put(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(stack: dict[str, Any]) -> None:
        node, last = _at(stack, path)
        node[last] = value

    return change


def drop(path: str) -> Callable[[dict[str, Any]], None]:
    def change(stack: dict[str, Any]) -> None:
        node, last = _at(stack, path)
        del node[last]

    return change


@dataclass(frozen=True)
class Broken:
    rule: str
    how: str
    change: Callable[[dict[str, Any]], None]


FN = "Resources/Fn/Properties"
DATA = "Resources/FnRole/Properties/Policies/0/PolicyDocument/Statement"
TABLE, BUCKET, STAGE = "Resources/Table", "Resources/Bucket", "Resources/ApiStage/Properties"
ORIGIN = "Resources/Cdn/Properties/DistributionConfig/Origins/0"

BROKEN = [
    Broken("E9301", "Lambda's default timeout", drop(f"{FN}/Timeout")),
    Broken("E9301", "Lambda's default memory", drop(f"{FN}/MemorySize")),
    Broken("E9301", "no tracing", put(f"{FN}/TracingConfig", {"Mode": "PassThrough"})),
    Broken("E9302", "no log group for a function", drop("Resources/FnLogGroup")),
    Broken("E9302", "a log group kept forever", drop("Resources/FnLogGroup/Properties/RetentionInDays")),
    Broken(
        "E9303",
        "a layer for another architecture",
        put("Resources/Layer/Properties/CompatibleArchitectures", ["x86_64"]),
    ),
    Broken("E9303", "a runtime no layer is built for", put(f"{FN}/Runtime", "python3.12")),
    Broken("E9310", "every action", put(f"{DATA}/0/Action", "*")),
    Broken("E9310", "every action of a service", put(f"{DATA}/0/Action", "dynamodb:*")),
    Broken("E9310", "a family of actions", put(f"{DATA}/2/Action", ["s3:Put*"])),
    Broken("E9310", "every resource", put(f"{DATA}/0/Resource", "*")),
    Broken(
        "E9310", "a resource of another stack", put(f"{DATA}/1/Resource", "arn:aws:s3:::elsewhere/uploads/*")
    ),
    Broken("E9310", "a resource named by a parameter", put(f"{DATA}/3/Resource", {"Fn::Sub": "${Other}"})),
    Broken(
        "E9310",
        "an identity of another account",
        put(f"{DATA}/6/Resource", "arn:aws:ses:us-east-1:999999999999:identity/someone@example.com"),
    ),
    Broken(
        "E9310",
        "every resource for an action that has one",
        put(f"{DATA}/7/Action", ["ses:GetSuppressedDestination", "ses:SendEmail"]),
    ),
    Broken(
        "E9310",
        "allowing by exclusion",
        put(f"{DATA}/4", {"Effect": "Allow", "NotAction": "iam:*", "Resource": {"Ref": "Topic"}}),
    ),
    Broken(
        "E9310",
        "passing any role",
        put(
            f"{DATA}/4",
            {
                "Effect": "Allow",
                "Action": "iam:PassRole",
                "Resource": {"Fn::Sub": "arn:aws:iam::${AWS::AccountId}:role/*"},
            },
        ),
    ),
    Broken(
        "E9311",
        "a broad AWS managed policy",
        put("Resources/FnRole/Properties/ManagedPolicyArns/1", "arn:aws:iam::aws:policy/AdministratorAccess"),
    ),
    Broken(
        "E9311",
        "a policy from outside the stack",
        put("Resources/FnRole/Properties/ManagedPolicyArns/1", "arn:aws:iam::123456789012:policy/ops"),
    ),
    Broken(
        "E9320", "no point-in-time recovery", drop(f"{TABLE}/Properties/PointInTimeRecoverySpecification")
    ),
    Broken("E9320", "no encryption", put(f"{TABLE}/Properties/SSESpecification", {"SSEEnabled": False})),
    Broken("E9320", "no billing mode or capacity", drop(f"{TABLE}/Properties/BillingMode")),
    Broken("E9320", "deleted with the stack", put(f"{TABLE}/DeletionPolicy", "Delete")),
    Broken(
        "E9321",
        "an index projecting everything",
        put(f"{TABLE}/Properties/GlobalSecondaryIndexes/0/Projection", {"ProjectionType": "ALL"}),
    ),
    Broken(
        "E9322",
        "public policies allowed",
        put(f"{BUCKET}/Properties/PublicAccessBlockConfiguration/BlockPublicPolicy", False),
    ),
    Broken("E9322", "no default encryption", drop(f"{BUCKET}/Properties/BucketEncryption")),
    Broken(
        "E9322",
        "ACLs decide ownership",
        put(f"{BUCKET}/Properties/OwnershipControls/Rules/0/ObjectOwnership", "ObjectWriter"),
    ),
    Broken("E9322", "replaced without a copy", drop(f"{BUCKET}/UpdateReplacePolicy")),
    Broken("E9323", "no bucket policy", drop("Resources/BucketPolicy")),
    Broken(
        "E9323",
        "TLS required on objects only",
        put(
            "Resources/BucketPolicy/Properties/PolicyDocument/Statement/0/Resource",
            {"Fn::Sub": "${Bucket.Arn}/*"},
        ),
    ),
    Broken("E9324", "puts where it is notified", put(f"{DATA}/1/Action", ["s3:GetObject", "s3:PutObject"])),
    Broken("E9324", "puts anywhere in the bucket", put(f"{DATA}/2/Resource", {"Fn::Sub": "${Bucket.Arn}/*"})),
    Broken(
        "E9330", "a queue unencrypted", put("Resources/DeadLetters/Properties/SqsManagedSseEnabled", False)
    ),
    Broken("E9330", "a topic unencrypted", drop("Resources/Topic/Properties/KmsMasterKeyId")),
    Broken(
        "E9331", "a consumed queue without dead letters", drop("Resources/Queue/Properties/RedrivePolicy")
    ),
    Broken(
        "E9331",
        "dead letters without a receive count",
        drop("Resources/Queue/Properties/RedrivePolicy/maxReceiveCount"),
    ),
    Broken(
        "E9332", "a visibility under six timeouts", put("Resources/Queue/Properties/VisibilityTimeout", 59)
    ),
    Broken("E9333", "dead letters nobody watches", drop("Resources/DeadLettersAlarm")),
    Broken(
        "E9333", "an alarm after five messages", put("Resources/DeadLettersAlarm/Properties/Threshold", 5)
    ),
    Broken("E9333", "stream failures nobody watches", drop("Resources/FailuresAlarm")),
    Broken(
        "E9334",
        "dead letters expiring first",
        put("Resources/DeadLetters/Properties/MessageRetentionPeriod", 86400),
    ),
    Broken(
        "E9335",
        "a queue batch retried whole",
        drop("Resources/QueueMapping/Properties/FunctionResponseTypes"),
    ),
    Broken(
        "E9335",
        "a stream batch retried whole",
        drop("Resources/StreamMapping/Properties/FunctionResponseTypes"),
    ),
    Broken(
        "E9336",
        "retrying a stream forever",
        put("Resources/StreamMapping/Properties/MaximumRecordAgeInSeconds", -1),
    ),
    Broken(
        "E9336", "records of any age", drop("Resources/StreamMapping/Properties/MaximumRecordAgeInSeconds")
    ),
    Broken("E9336", "no bisection", drop("Resources/StreamMapping/Properties/BisectBatchOnFunctionError")),
    Broken("E9336", "failed batches dropped", drop("Resources/StreamMapping/Properties/DestinationConfig")),
    Broken("E9340", "no throttling", drop(f"{STAGE}/MethodSettings")),
    Broken("E9340", "throttling some methods only", put(f"{STAGE}/MethodSettings/0/ResourcePath", "/games")),
    Broken("E9340", "no access log", drop(f"{STAGE}/AccessLogSetting")),
    Broken(
        "E9340",
        "access logs not JSON",
        put(f"{STAGE}/AccessLogSetting/Format", "$context.requestId $context.status"),
    ),
    Broken("E9340", "no tracing", put(f"{STAGE}/TracingEnabled", False)),
    Broken(
        "E9341", "a stage made by a deployment", put("Resources/ApiDeployment/Properties/StageName", "Stage")
    ),
    Broken("E9342", "a plan without quota", drop("Resources/UsagePlan/Properties/Quota")),
    Broken(
        "E9342",
        "a plan without throttling",
        put("Resources/UsagePlan/Properties/Throttle", {"RateLimit": 0, "BurstLimit": 0}),
    ),
    Broken("E9343", "an S3 origin without access control", drop(f"{ORIGIN}/OriginAccessControlId")),
    Broken(
        "E9343",
        "viewers over plain HTTP",
        put(
            "Resources/Cdn/Properties/DistributionConfig/DefaultCacheBehavior/ViewerProtocolPolicy",
            "allow-all",
        ),
    ),
    Broken("E9350", "a disabled schedule", put("Resources/Schedule/Properties/State", "DISABLED")),
    Broken("E9350", "a schedule without permission", drop("Resources/SchedulePermission")),
    Broken(
        "E9350",
        "a schedule aimed elsewhere",
        put(
            "Resources/Schedule/Properties/Targets/0/Arn", "arn:aws:lambda:us-east-1:123456789012:function:x"
        ),
    ),
    Broken("E9360", "a function nobody watches", drop("Resources/FnFailingAlarm")),
    Broken("E9360", "errors watched, throttles not", drop("Resources/FnFailingAlarm/Properties/Metrics/1")),
    Broken("E9361", "a stream consumer whose lag nobody watches", drop("Resources/FnLagAlarm")),
    Broken(
        "E9362",
        "one alarm that pages and others that do not",
        put("Resources/FnLagAlarm/Properties/AlarmActions", [{"Ref": "Topic"}]),
    ),
    Broken("E9363", "no dashboard", drop("Resources/Dashboard")),
    Broken("E9363", "a dashboard without widgets", put("Resources/Dashboard/Properties/DashboardBody", "{}")),
]


def test_every_rule_has_a_stack_that_breaks_it() -> None:
    assert {broken.rule for broken in BROKEN} == policy_ids()


@pytest.mark.parametrize("broken", BROKEN, ids=[f"{b.rule}-{b.how.replace(' ', '-')}" for b in BROKEN])
def test_the_rule_reports_the_stack_that_breaks_it_and_no_other_rule_does(broken: Broken) -> None:
    stack = copy.deepcopy(COMPLIANT)
    broken.change(stack)
    found = _found(lint(stack, builtin_rules=False))
    assert found, f"{broken.rule} let {broken.how} through"
    assert {line.split(" ", 1)[0] for line in found} == {broken.rule}, found
