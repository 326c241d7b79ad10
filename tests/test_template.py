"""template.yaml: cfn-lint clean, and translated offline by the SAM translator into the stack we mean."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from local_stack.template import (
    TEMPLATE_PATH,
    api_routes,
    apply_language_extensions,
    evaluate_conditions,
    load_template,
    parameter_values,
)

REPO = TEMPLATE_PATH.parent

# Every route of the API, exactly as issue "The SAM stack and the embedded local stack" lists them.
ROUTES = {
    ("POST", "/players"),
    ("GET", "/players/me"),
    ("GET", "/players/me/games"),
    ("POST", "/players/me/tokens"),
    ("DELETE", "/players/me/tokens/current"),
    ("POST", "/games"),
    ("GET", "/games"),
    ("POST", "/games/{game_id}/join"),
    ("POST", "/games/{game_id}/leave"),
    ("POST", "/games/{game_id}/start"),
    ("GET", "/games/{game_id}"),
    ("POST", "/games/{game_id}/clue"),
    ("POST", "/games/{game_id}/submissions"),
    ("POST", "/games/{game_id}/votes"),
    ("GET", "/games/{game_id}/rounds"),
    ("POST", "/games/{game_id}/nudges"),
    ("PUT", "/games/{game_id}/notifications"),
    ("PUT", "/players/me/notifications"),
    ("GET", "/players/me/devices"),
    ("PUT", "/players/me/devices/{device_id}"),
    ("DELETE", "/players/me/devices/{device_id}"),
    ("GET", "/decks"),
    ("GET", "/decks/{deck_id}/cards"),
    ("POST", "/decks"),
    ("GET", "/decks/{deck_id}"),
    ("GET", "/openapi.json"),
    ("GET", "/docs"),
    ("POST", "/players/me/webhooks"),
    ("GET", "/players/me/webhooks"),
    ("GET", "/players/me/webhooks/{webhook_id}"),
    ("DELETE", "/players/me/webhooks/{webhook_id}"),
    ("POST", "/players/me/webhooks/{webhook_id}/rotate-secret"),
    ("GET", "/players/me/webhooks/{webhook_id}/deliveries"),
    ("GET", "/games/{game_id}/events"),
}

MANAGED_POLICIES = {
    "AWSLambdaBasicExecutionRole": "arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole",
    "AWSXrayWriteOnlyAccess": "arn:aws:iam::aws:policy/AWSXrayWriteOnlyAccess",
    "AWSXRayDaemonWriteAccess": "arn:aws:iam::aws:policy/AWSXRayDaemonWriteAccess",
}


class StaticPolicyLoader:
    """Stands in for samtranslator's ManagedPolicyLoader, which would ask IAM."""

    def load(self) -> dict[str, str]:
        return dict(MANAGED_POLICIES)


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


def translate(template: dict[str, Any], **parameters: str) -> dict[str, Any]:
    """What CloudFormation runs: AWS::LanguageExtensions, then the SAM transform (on a packaged template)."""
    from samtranslator.translator.transform import transform

    resolved = apply_language_extensions(template, parameters)
    resolved["Globals"]["Function"]["CodeUri"] = "s3://packaged-artifacts/dixit.zip"  # what sam package does
    resolved["Resources"]["PillowLayer"]["Properties"]["ContentUri"] = "s3://packaged-artifacts/pillow.zip"
    output: dict[str, Any] = transform(resolved, parameter_values(resolved, parameters), StaticPolicyLoader())
    return output


@pytest.fixture(scope="module")
def stack(template: dict[str, Any]) -> dict[str, Any]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AWS_DEFAULT_REGION", "us-east-1")  # the translator wants a region
        return translate(template)


@pytest.fixture(scope="module")
def keyed_stack(template: dict[str, Any]) -> dict[str, Any]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AWS_DEFAULT_REGION", "us-east-1")
        return translate(template, RequireApiKey="true")


def of_type(stack: dict[str, Any], kind: str) -> dict[str, dict[str, Any]]:
    return {name: res for name, res in stack["Resources"].items() if res["Type"] == kind}


def test_cfn_lint_finds_nothing_wrong_with_the_template() -> None:
    from cfnlint.api import lint_file

    matches = lint_file(TEMPLATE_PATH)
    assert [str(match) for match in matches] == []


def test_template_translates_offline_with_samtranslator(stack: dict[str, Any]) -> None:
    assert set(of_type(stack, "AWS::DynamoDB::Table")) == {"GameTable"}
    assert set(of_type(stack, "AWS::S3::Bucket")) == {"CardBucket"}
    assert set(of_type(stack, "AWS::SNS::Topic")) == {"NudgeTopic"}
    assert set(of_type(stack, "AWS::Lambda::Function")) == {
        "ApiFunction",
        "NudgeFunction",
        "CardIngestFunction",
        "NotifyFunction",
        "WebhookFunction",
    }
    assert set(of_type(stack, "AWS::ApiGateway::RestApi")) == {"Api"}
    stages = of_type(stack, "AWS::ApiGateway::Stage")
    assert list(stages) == ["ApiStage"]
    assert stages["ApiStage"]["Properties"]["StageName"] == {"Ref": "Stage"}
    assert len(of_type(stack, "AWS::ApiGateway::Deployment")) == 1


def test_the_nudge_sweep_runs_on_the_nudge_rate_schedule(stack: dict[str, Any]) -> None:
    rules = of_type(stack, "AWS::Events::Rule")
    assert list(rules) == ["NudgeFunctionNudgeSweep"]
    rule = rules["NudgeFunctionNudgeSweep"]["Properties"]
    assert rule["ScheduleExpression"] == {"Ref": "NudgeRate"}
    assert rule["State"] == "ENABLED"
    assert rule["Targets"][0]["Arn"] == {"Fn::GetAtt": ["NudgeFunction", "Arn"]}
    assert stack["Parameters"]["NudgeRate"]["Default"] == "rate(5 minutes)"


def test_functions_run_python_3_13_on_arm64_traced_with_the_documented_handlers(
    stack: dict[str, Any],
) -> None:
    functions = of_type(stack, "AWS::Lambda::Function")
    assert functions["ApiFunction"]["Properties"]["Handler"] == "handlers.api.lambda_handler"
    assert functions["NudgeFunction"]["Properties"]["Handler"] == "handlers.nudge.lambda_handler"
    for function in functions.values():
        props = function["Properties"]
        assert props["Runtime"] == "python3.13"
        assert props["Architectures"] == ["arm64"]
        assert props["TracingConfig"] == {"Mode": "Active"}
        env = props["Environment"]["Variables"]
        assert env["TABLE_NAME"] == {"Ref": "GameTable"}
        assert env["NUDGE_TOPIC_ARN"] == {"Ref": "NudgeTopic"}
        assert env["POWERTOOLS_SERVICE_NAME"] == "dixit"
        assert env["POWERTOOLS_METRICS_NAMESPACE"] == "DixitByMail"
        assert env["POWERTOOLS_LOG_LEVEL"] == {"Ref": "LogLevel"}


def test_only_the_api_names_the_card_bucket_and_only_the_ingest_carries_pillow(stack: dict[str, Any]) -> None:
    functions = of_type(stack, "AWS::Lambda::Function")
    api_env = functions["ApiFunction"]["Properties"]["Environment"]["Variables"]
    assert api_env["CARD_BUCKET"] == {"Ref": "CardBucket"}
    assert api_env["CARD_IMAGE_BASE_URL"] == {"Ref": "CardImageBaseUrl"}
    ingest = functions["CardIngestFunction"]["Properties"]
    assert ingest["Handler"] == "handlers.ingest.lambda_handler"
    # Naming the bucket would close a dependency cycle through the bucket's notification.
    assert "CARD_BUCKET" not in ingest["Environment"]["Variables"]
    pillow = {"Ref": next(n for n in stack["Resources"] if n.startswith("PillowLayer"))}
    assert pillow in ingest["Layers"]
    others = [f for name, f in functions.items() if name != "CardIngestFunction"]
    assert all(pillow not in f["Properties"].get("Layers", []) for f in others)
    assert "pillow" not in (REPO / "src" / "requirements.txt").read_text().lower()


def test_an_upload_under_uploads_notifies_the_ingest(stack: dict[str, Any]) -> None:
    bucket = stack["Resources"]["CardBucket"]["Properties"]
    (notification,) = bucket["NotificationConfiguration"]["LambdaConfigurations"]
    assert notification["Event"] == "s3:ObjectCreated:*"
    assert notification["Function"] == {"Fn::GetAtt": ["CardIngestFunction", "Arn"]}
    assert notification["Filter"]["S3Key"]["Rules"] == [{"Name": "prefix", "Value": "uploads/"}]


def test_the_card_cdn_exists_only_when_asked_with_origin_access_control(template: dict[str, Any]) -> None:
    assert evaluate_conditions(template, parameter_values(template))["CardCdnWanted"] is False
    wanted = parameter_values(template, {"CreateCardCdn": "true"})
    assert evaluate_conditions(template, wanted)["CardCdnWanted"] is True
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AWS_DEFAULT_REGION", "us-east-1")
        with_cdn = translate(template, CreateCardCdn="true")
    cdn_parts = {
        **of_type(with_cdn, "AWS::CloudFront::Distribution"),
        **of_type(with_cdn, "AWS::CloudFront::OriginAccessControl"),
    }
    assert {n: r.get("Condition") for n, r in cdn_parts.items()} == {
        "CardCdn": "CardCdnWanted",
        "CardCdnOriginAccess": "CardCdnWanted",
    }
    cdn = cdn_parts["CardCdn"]
    (origin,) = cdn["Properties"]["DistributionConfig"]["Origins"]
    assert origin["OriginAccessControlId"] == {"Fn::GetAtt": ["CardCdnOriginAccess", "Id"]}
    assert "CardCdnUrl" in with_cdn["Outputs"]


def _statements(stack: dict[str, Any], role: str) -> list[dict[str, Any]]:
    policies = stack["Resources"][role]["Properties"]["Policies"]
    return [statement for policy in policies for statement in policy["PolicyDocument"]["Statement"]]


def test_functions_get_least_privilege_policies_scoped_to_the_stack_resources(stack: dict[str, Any]) -> None:
    for role, expected_refs in {
        "ApiFunctionRole": {"GameTable", "CardBucket", "NudgeTopic"},
        "NudgeFunctionRole": {"GameTable", "NudgeTopic"},
        "NotifyFunctionRole": {"GameTable", "NudgeTopic"},
    }.items():
        statements = _statements(stack, role)
        text = json.dumps(statements)
        assert '"Resource": "*"' not in text
        actions = {action for statement in statements for action in statement["Action"]}
        assert not any(action.endswith(":*") for action in actions)
        assert "sns:Publish" in actions
        assert "dynamodb:Query" in actions
        referenced = {name for name in ("GameTable", "CardBucket", "NudgeTopic") if f'"{name}"' in text}
        assert referenced == expected_refs
    api_actions = {
        action for statement in _statements(stack, "ApiFunctionRole") for action in statement["Action"]
    }
    assert "s3:GetObject" in api_actions
    # Presigned GETs, and presigned POSTs of custom card uploads (which carry this role's signature).
    puts = [s for s in _statements(stack, "ApiFunctionRole") if "s3:PutObject" in s["Action"]]
    assert [s["Resource"] for s in puts] == [{"Fn::Sub": "${CardBucket.Arn}/uploads/*"}]


def test_the_api_throttles_logs_access_and_allows_cors(
    stack: dict[str, Any], template: dict[str, Any]
) -> None:
    stage = stack["Resources"]["ApiStage"]["Properties"]
    (settings,) = stage["MethodSettings"]
    assert settings["ThrottlingRateLimit"] > 0
    assert settings["ThrottlingBurstLimit"] > 0
    assert stage["AccessLogSetting"]["DestinationArn"] == {"Fn::GetAtt": ["ApiAccessLogGroup", "Arn"]}
    json.loads(stage["AccessLogSetting"]["Format"])  # CloudWatch Logs Insights reads it as JSON
    cors = template["Resources"]["Api"]["Properties"]["Cors"]
    assert "Authorization" in cors["AllowHeaders"]
    assert "Idempotency-Key" in cors["AllowHeaders"]


def _security_by_operation(stack: dict[str, Any]) -> dict[tuple[str, str], Any]:
    paths = stack["Resources"]["Api"]["Properties"]["Body"]["paths"]
    return {
        (method.upper(), path): operation.get("security")
        for path, operations in paths.items()
        for method, operation in operations.items()
        if method != "options"
    }


def test_no_api_key_and_no_usage_plan_by_default(stack: dict[str, Any]) -> None:
    assert of_type(stack, "AWS::ApiGateway::UsagePlan") == {}
    assert of_type(stack, "AWS::ApiGateway::ApiKey") == {}
    assert all(security is None for security in _security_by_operation(stack).values())


def test_require_api_key_adds_a_per_api_usage_plan_and_requires_the_key_on_every_route(
    keyed_stack: dict[str, Any],
) -> None:
    plans = of_type(keyed_stack, "AWS::ApiGateway::UsagePlan")
    assert list(plans) == ["ApiUsagePlan"]
    plan = plans["ApiUsagePlan"]["Properties"]
    assert plan["ApiStages"] == [{"ApiId": {"Ref": "Api"}, "Stage": {"Ref": "ApiStage"}}]
    assert plan["Throttle"]["RateLimit"] > 0
    assert plan["Quota"]["Period"] == "DAY"
    assert list(of_type(keyed_stack, "AWS::ApiGateway::ApiKey")) == ["ApiApiKey"]
    assert list(of_type(keyed_stack, "AWS::ApiGateway::UsagePlanKey")) == ["ApiUsagePlanKey"]
    security = _security_by_operation(keyed_stack)
    assert set(security) == ROUTES
    assert all(value == [{"api_key": []}] for value in security.values())


def test_every_route_is_declared_as_an_api_event_of_the_api_function(
    template: dict[str, Any], stack: dict[str, Any]
) -> None:
    routes = api_routes(template)
    assert {(route.method, route.path) for route in routes} == ROUTES
    assert len(routes) == len(ROUTES)
    assert {route.function for route in routes} == {"ApiFunction"}
    events = template["Resources"]["ApiFunction"]["Properties"]["Events"]
    assert all(event["Properties"]["RestApiId"] == {"Ref": "Api"} for event in events.values())
    assert set(_security_by_operation(stack)) == ROUTES


def test_every_route_the_api_serves_is_declared_in_the_template(template: dict[str, Any]) -> None:
    from handlers import openapi
    from handlers.api import app

    document = json.loads(openapi.document(app))
    served = {
        (method.upper(), path) for path, operations in document["paths"].items() for method in operations
    }
    served |= {("GET", "/openapi.json"), ("GET", "/docs")}  # served, but kept out of the schema
    declared = {(route.method, route.path) for route in api_routes(template)}
    assert served - declared == set(), "routes the API serves but API Gateway would not forward"
    assert declared - served == set(), "routes API Gateway forwards but the API does not serve"


def test_the_game_table_matches_the_single_table_design(template: dict[str, Any]) -> None:
    table = template["Resources"]["GameTable"]
    props = table["Properties"]
    assert table["DeletionPolicy"] == "Retain"
    assert table["UpdateReplacePolicy"] == "Retain"
    assert props["BillingMode"] == "PAY_PER_REQUEST"
    assert {(a["AttributeName"], a["AttributeType"]) for a in props["AttributeDefinitions"]} == {
        ("pk", "S"),
        ("sk", "S"),
        ("gsi1pk", "S"),
        ("gsi1sk", "S"),
        ("due_shard", "S"),
        ("due_at", "N"),
    }
    assert props["KeySchema"] == [
        {"AttributeName": "pk", "KeyType": "HASH"},
        {"AttributeName": "sk", "KeyType": "RANGE"},
    ]
    lobby, due = props["GlobalSecondaryIndexes"]
    assert lobby["IndexName"] == "gsi1"
    assert lobby["KeySchema"] == [
        {"AttributeName": "gsi1pk", "KeyType": "HASH"},
        {"AttributeName": "gsi1sk", "KeyType": "RANGE"},
    ]
    # Keys only: moves that leave an index key alone write nothing to the index (app/due_index.py).
    assert lobby["Projection"] == {"ProjectionType": "KEYS_ONLY"}
    assert due["IndexName"] == "due"
    assert due["KeySchema"] == [
        {"AttributeName": "due_shard", "KeyType": "HASH"},
        {"AttributeName": "due_at", "KeyType": "RANGE"},
    ]
    assert due["Projection"] == {"ProjectionType": "KEYS_ONLY"}
    assert props["TimeToLiveSpecification"] == {"AttributeName": "expires_at", "Enabled": True}
    assert props["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}
    assert props["SSESpecification"] == {"SSEEnabled": True}


def test_the_card_bucket_is_private_encrypted_retained_and_serves_presigned_urls(
    template: dict[str, Any],
) -> None:
    bucket = template["Resources"]["CardBucket"]
    props = bucket["Properties"]
    assert bucket["DeletionPolicy"] == "Retain"
    assert bucket["UpdateReplacePolicy"] == "Retain"
    assert props["PublicAccessBlockConfiguration"] == {
        "BlockPublicAcls": True,
        "BlockPublicPolicy": True,
        "IgnorePublicAcls": True,
        "RestrictPublicBuckets": True,
    }
    (rule,) = props["BucketEncryption"]["ServerSideEncryptionConfiguration"]
    assert rule["ServerSideEncryptionByDefault"]["SSEAlgorithm"] == "AES256"
    assert props["OwnershipControls"] == {"Rules": [{"ObjectOwnership": "BucketOwnerEnforced"}]}
    (cors,) = props["CorsConfiguration"]["CorsRules"]
    assert {"GET", "PUT"} <= set(cors["AllowedMethods"])
    policy = template["Resources"]["CardBucketPolicy"]["Properties"]["PolicyDocument"]
    assert policy["Statement"][0]["Condition"] == {"Bool": {"aws:SecureTransport": "false"}}


def test_the_nudge_topic_is_encrypted(template: dict[str, Any]) -> None:
    assert template["Resources"]["NudgeTopic"]["Properties"]["KmsMasterKeyId"] == "alias/aws/sns"


def test_the_stack_outputs_what_clients_and_operators_need(stack: dict[str, Any]) -> None:
    outputs = stack["Outputs"]
    assert {"ApiUrl", "TableName", "CardBucketName", "NudgeTopicArn"} <= set(outputs)
    assert "${Api}.execute-api" in outputs["ApiUrl"]["Value"]["Fn::Sub"]
    assert outputs["TableName"]["Value"] == {"Ref": "GameTable"}


def test_samconfig_defines_default_dev_and_prod_with_a_confirmed_prod_deploy() -> None:
    config = tomllib.loads(Path(REPO / "samconfig.toml").read_text(encoding="utf-8"))
    assert config["version"] == 0.1
    for env in ("default", "dev", "prod"):
        deploy = config[env]["deploy"]["parameters"]
        assert "CAPABILITY_IAM" in deploy["capabilities"]
        assert "CAPABILITY_AUTO_EXPAND" in deploy["capabilities"]  # AWS::LanguageExtensions
        assert deploy["resolve_s3"] is True
        assert config[env]["build"]["parameters"] == {"cached": True, "parallel": True}
        assert config[env]["validate"]["parameters"]["lint"] is True
    assert "Stage=dev" in config["dev"]["deploy"]["parameters"]["parameter_overrides"]
    assert "Stage=prod" in config["prod"]["deploy"]["parameters"]["parameter_overrides"]
    assert config["prod"]["deploy"]["parameters"]["confirm_changeset"] is True
    assert (
        config["prod"]["deploy"]["parameters"]["stack_name"]
        != config["dev"]["deploy"]["parameters"]["stack_name"]
    )


def test_webhook_deliveries_come_from_a_queue_with_a_dead_letter_queue_and_partial_batch_failures(
    stack: dict[str, Any],
) -> None:
    queues = of_type(stack, "AWS::SQS::Queue")
    assert {"WebhookQueue", "WebhookDeadLetterQueue"} <= set(queues)
    queue = queues["WebhookQueue"]["Properties"]
    assert queue["RedrivePolicy"]["deadLetterTargetArn"] == {"Fn::GetAtt": ["WebhookDeadLetterQueue", "Arn"]}
    # Retries run for 24 h; the messages must outlive that.
    assert queue["MessageRetentionPeriod"] > 86_400
    assert all(q["Properties"]["SqsManagedSseEnabled"] for q in queues.values())
    function = of_type(stack, "AWS::Lambda::Function")["WebhookFunction"]["Properties"]
    assert function["Handler"] == "handlers.webhook.lambda_handler"
    assert queue["VisibilityTimeout"] >= 6 * function["Timeout"]
    (mapping,) = [
        m
        for m in of_type(stack, "AWS::Lambda::EventSourceMapping").values()
        if m["Properties"]["FunctionName"] == {"Ref": "WebhookFunction"}
    ]
    assert mapping["Properties"]["EventSourceArn"] == {"Fn::GetAtt": ["WebhookQueue", "Arn"]}
    assert mapping["Properties"]["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    actions = {a for statement in _statements(stack, "WebhookFunctionRole") for a in statement["Action"]}
    assert {"sqs:ChangeMessageVisibility", "dynamodb:UpdateItem"} <= actions
    assert any(action.startswith("sqs:SendMessage") for action in actions)  # to the dead-letter queue
    assert "sns:Publish" not in actions


def test_an_alarm_fires_as_soon_as_a_webhook_delivery_reaches_the_dead_letter_queue(
    stack: dict[str, Any],
) -> None:
    (props,) = [
        alarm["Properties"]
        for alarm in of_type(stack, "AWS::CloudWatch::Alarm").values()
        if "WebhookDeadLetterQueue" in json.dumps(alarm["Properties"]["Dimensions"])
    ]
    assert (props["Namespace"], props["MetricName"]) == ("AWS/SQS", "ApproximateNumberOfMessagesVisible")
    assert props["Dimensions"] == [
        {"Name": "QueueName", "Value": {"Fn::GetAtt": ["WebhookDeadLetterQueue", "QueueName"]}}
    ]
    assert (props["ComparisonOperator"], props["Threshold"]) == ("GreaterThanThreshold", 0)


def test_no_deployed_function_lets_webhooks_use_loopback_http(template: dict[str, Any]) -> None:
    assert "WEBHOOK_ALLOW_LOOPBACK_HTTP" not in json.dumps(template)


def test_the_stream_consumer_and_the_sweep_enqueue_webhook_deliveries_and_keep_the_feed_for_a_setting(
    stack: dict[str, Any], template: dict[str, Any]
) -> None:
    functions = of_type(stack, "AWS::Lambda::Function")
    for name in ("NotifyFunction", "NudgeFunction"):
        variables = functions[name]["Properties"]["Environment"]["Variables"]
        assert variables["WEBHOOK_QUEUE_URL"] == {"Ref": "WebhookQueue"}
        assert variables["FEED_TTL_AFTER_END_SECONDS"] == {"Ref": "FeedTtlAfterEndSeconds"}
        sends = [s for s in _statements(stack, f"{name}Role") if "sqs:SendMessage*" in s["Action"]]
        assert any('"WebhookQueue"' in json.dumps(s["Resource"]) for s in sends)
    api_actions = {a for s in _statements(stack, "ApiFunctionRole") for a in s["Action"]}
    assert not any(action.startswith("sqs:") for action in api_actions)  # moves never touch the queue
    assert template["Parameters"]["FeedTtlAfterEndSeconds"]["Default"] >= 86_400
