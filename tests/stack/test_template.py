"""template.yaml: cfn-lint clean, and wired to the code it deploys.

What the stack must be (limits, tracing, least privilege, encryption, dead letters and their alarms,
throttling, access logs...) is policy, checked on the translated stack by the rules of policies/cfn_lint
(tests/stack/policies) and by checkov (make lint). What is left here only a test can check: that the
template and the code agree (routes, settings, S3 prefixes, retry windows, the calls the code makes) and
that the parameters switch on what they say.
"""

from __future__ import annotations

import importlib
import inspect
import json
import tomllib
from dataclasses import fields
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

import pytest
from policies.cfn_lint._stack import as_list, resources_meant, role_of_function, roles_of, statements, text
from policies.stack import translate

from local_stack.template import (
    TEMPLATE_PATH,
    api_routes,
    evaluate_conditions,
    load_template,
    parameter_values,
)

REPO = TEMPLATE_PATH.parent


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


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


def _object_keys(target: Any) -> str | None:
    """The object keys an S3 ARN covers (``uploads/*``), "" for a bucket itself, None for no S3 ARN."""
    arn = text(target) or ""
    if ":s3:::" not in arn and not arn.startswith("${"):
        return None
    _, slash, keys = arn.split(":::", 1)[-1].partition("/")
    return keys if slash else ""


def allows(stack: dict[str, Any], function: str, action: str, resource: str, key: str | None = None) -> bool:
    """Whether ``function``'s role allows ``action`` on the stack's ``resource`` (on its object ``key``)."""
    role = role_of_function(stack, function)
    assert role is not None, f"{function} has no role of the stack"
    for _, document in roles_of(stack, role):
        for _, statement in statements(document):
            granted = [str(a).lower() for a in as_list(statement.get("Action"))]
            if statement.get("Effect") != "Allow" or not any(fnmatchcase(action.lower(), a) for a in granted):
                continue
            for target in as_list(statement.get("Resource")):
                keys = _object_keys(target)
                if resource in resources_meant(stack, target) and (
                    key is None or (keys is not None and fnmatchcase(key, keys))
                ):
                    return True
    return False


def the_api_function(template: dict[str, Any]) -> str:
    (function,) = {route.function for route in api_routes(template)}
    return function


def consumers(stack: dict[str, Any], source_type: str) -> dict[str, str]:
    """function -> source of every event source mapping from a resource of ``source_type``."""
    found = {}
    for mapping in of_type(stack, "AWS::Lambda::EventSourceMapping").values():
        props = mapping["Properties"]
        source = props["EventSourceArn"]["Fn::GetAtt"][0]
        if stack["Resources"][source]["Type"] == source_type:
            found[props["FunctionName"]["Ref"]] = source
    return found


def webhook_consumer(stack: dict[str, Any]) -> list[tuple[str, str]]:
    """(function, queue) of the webhook queue's consumer (the outbox's: test_template_outbox; the live
    channel's: test_template_live)."""
    others = {"NotifyDeliveryFunction", "LiveDeliveryFunction"}
    return [(f, q) for f, q in consumers(stack, "AWS::SQS::Queue").items() if f not in others]


def scheduled(stack: dict[str, Any]) -> set[str]:
    return {
        target["Arn"]["Fn::GetAtt"][0]
        for rule in of_type(stack, "AWS::Events::Rule").values()
        for target in rule["Properties"]["Targets"]
    }


def told(stack: dict[str, Any], function: str, variable: str) -> Any:
    properties = stack["Resources"][function]["Properties"]
    return properties.get("Environment", {}).get("Variables", {}).get(variable)


def test_cfn_lint_finds_nothing_wrong_with_the_template() -> None:
    from cfnlint.api import lint_file

    matches = lint_file(TEMPLATE_PATH)
    assert [str(match) for match in matches] == []


def test_every_function_handler_is_a_callable_of_the_code_it_ships(stack: dict[str, Any]) -> None:
    for name, function in of_type(stack, "AWS::Lambda::Function").items():
        module, _, attribute = function["Properties"]["Handler"].rpartition(".")
        assert callable(getattr(importlib.import_module(module), attribute, None)), name


def test_every_environment_variable_of_a_function_is_one_the_code_reads(stack: dict[str, Any]) -> None:
    from aws_lambda_powertools.shared import constants

    from app.core.settings import AppSettings

    read = {setting.name.upper() for setting in fields(AppSettings)}
    read |= {
        value for key, value in vars(constants).items() if key.endswith("_ENV") and isinstance(value, str)
    }
    for name, function in of_type(stack, "AWS::Lambda::Function").items():
        variables = set(function["Properties"].get("Environment", {}).get("Variables", {}))
        assert variables - read == set(), f"{name} is given settings nothing reads"


def test_no_deployed_function_lets_webhooks_use_loopback_http(template: dict[str, Any]) -> None:
    assert "WEBHOOK_ALLOW_LOOPBACK_HTTP" not in json.dumps(template)


def test_the_bucket_notifies_of_uploads_under_the_prefix_the_api_signs_upload_forms_for(
    stack: dict[str, Any],
) -> None:
    from app.decks.card_images import UPLOAD_PREFIX, upload_key

    assert upload_key("base-001").startswith(UPLOAD_PREFIX)
    (bucket,) = of_type(stack, "AWS::S3::Bucket").values()
    (notification,) = bucket["Properties"]["NotificationConfiguration"]["LambdaConfigurations"]
    assert notification["Event"] == "s3:ObjectCreated:*"
    assert notification["Filter"]["S3Key"]["Rules"] == [{"Name": "prefix", "Value": UPLOAD_PREFIX}]


def test_only_the_function_the_bucket_notifies_carries_the_pillow_layer(
    stack: dict[str, Any], template: dict[str, Any]
) -> None:
    (pillow,) = [
        name
        for name, resource in template["Resources"].items()
        if resource["Type"] == "AWS::Serverless::LayerVersion"
        and "pillow" in resource["Properties"]["ContentUri"]
    ]
    layer = {
        "Ref": next(name for name in of_type(stack, "AWS::Lambda::LayerVersion") if name.startswith(pillow))
    }
    (bucket,) = of_type(stack, "AWS::S3::Bucket").values()
    notified = {
        c["Function"]["Fn::GetAtt"][0]
        for c in bucket["Properties"]["NotificationConfiguration"]["LambdaConfigurations"]
    }
    carriers = {
        name
        for name, function in of_type(stack, "AWS::Lambda::Function").items()
        if layer in function["Properties"].get("Layers", [])
    }
    assert carriers == notified
    assert "pillow" not in (REPO / "src" / "requirements.txt").read_text().lower()


def test_the_card_cdn_exists_only_when_asked(template: dict[str, Any]) -> None:
    parts = {
        name: resource
        for name, resource in template["Resources"].items()
        if resource["Type"].startswith("AWS::CloudFront::")
    }
    conditions = {resource.get("Condition") for resource in parts.values()}
    conditions.add(template["Outputs"]["CardCdnUrl"].get("Condition"))
    assert parts
    assert None not in conditions
    by_default = evaluate_conditions(template, parameter_values(template))
    asked = evaluate_conditions(template, parameter_values(template, {"CreateCardCdn": "true"}))
    assert [by_default[c] for c in conditions] == [False] * len(conditions)
    assert [asked[c] for c in conditions] == [True] * len(conditions)


def _served_document() -> dict[str, Any]:
    from handlers import openapi
    from handlers.api import whole_api

    document: dict[str, Any] = json.loads(openapi.document(whole_api()))
    return document


def test_the_template_declares_exactly_the_routes_of_the_route_table(template: dict[str, Any]) -> None:
    from handlers.route_table import ROUTES

    table = {(route.method, route.path) for route in ROUTES}
    declared = [(route.method, route.path) for route in api_routes(template)]
    assert len(declared) == len(set(declared)), "a route declared twice in the template"
    assert table - set(declared) == set(), "routes the API serves but API Gateway would not forward"
    assert set(declared) - table == set(), "routes API Gateway forwards but the API does not serve"


def test_the_served_document_names_every_documented_route_of_the_table() -> None:
    from handlers.route_table import ROUTES

    document = _served_document()
    served = {
        (method.upper(), path) for path, operations in document["paths"].items() for method in operations
    }
    assert served == {(route.method, route.path) for route in ROUTES if route.documented}


def test_cors_lets_browsers_send_every_header_the_api_reads(template: dict[str, Any]) -> None:
    document = _served_document()
    read = {
        parameter["name"].lower()
        for operations in document["paths"].values()
        for operation in operations.values()
        for parameter in operation.get("parameters", [])
        if parameter["in"] == "header"
    }
    read |= {"content-type", "x-api-key"}  # JSON bodies; the key when RequireApiKey is set
    if any(scheme.get("scheme") == "bearer" for scheme in document["components"]["securitySchemes"].values()):
        read.add("authorization")
    cors = template["Resources"]["Api"]["Properties"]["Cors"]
    allowed = {header.strip().lower() for header in cors["AllowHeaders"].strip("'").split(",")}
    assert read - allowed == set()


def _security_by_operation(stack: dict[str, Any]) -> dict[tuple[str, str], Any]:
    (api,) = of_type(stack, "AWS::ApiGateway::RestApi").values()
    return {
        (method.upper(), path): operation.get("security")
        for path, operations in api["Properties"]["Body"]["paths"].items()
        for method, operation in operations.items()
        if method != "options"
    }


def test_no_api_key_and_no_usage_plan_by_default(stack: dict[str, Any]) -> None:
    assert of_type(stack, "AWS::ApiGateway::UsagePlan") == {}
    assert of_type(stack, "AWS::ApiGateway::ApiKey") == {}
    assert all(security is None for security in _security_by_operation(stack).values())


def test_require_api_key_adds_a_usage_plan_for_the_stage_and_requires_the_key_on_every_route(
    keyed_stack: dict[str, Any], template: dict[str, Any]
) -> None:
    (plan,) = of_type(keyed_stack, "AWS::ApiGateway::UsagePlan").values()
    ((api, _),) = of_type(keyed_stack, "AWS::ApiGateway::RestApi").items()
    ((stage, _),) = of_type(keyed_stack, "AWS::ApiGateway::Stage").items()
    assert plan["Properties"]["ApiStages"] == [{"ApiId": {"Ref": api}, "Stage": {"Ref": stage}}]
    assert len(of_type(keyed_stack, "AWS::ApiGateway::ApiKey")) == 1
    assert len(of_type(keyed_stack, "AWS::ApiGateway::UsagePlanKey")) == 1
    security = _security_by_operation(keyed_stack)
    assert set(security) == {(route.method, route.path) for route in api_routes(template)}
    assert all(value == [{"api_key": []}] for value in security.values())


def test_the_store_writes_expiry_times_to_the_attribute_the_table_expires_items_by(
    template: dict[str, Any],
) -> None:
    from app.aws.dynamodb import items

    (table,) = [r for r in template["Resources"].values() if r["Type"] == "AWS::DynamoDB::Table"]
    ttl = table["Properties"]["TimeToLiveSpecification"]
    assert ttl["Enabled"] is True
    assert f'"{ttl["AttributeName"]}": {{"N"' in inspect.getsource(items)


def test_the_webhook_queue_keeps_deliveries_longer_than_the_function_retries_them(
    stack: dict[str, Any],
) -> None:
    from app.core.settings import AppSettings

    ((consumer, queue),) = webhook_consumer(stack)
    retry_for = told(stack, consumer, "WEBHOOK_RETRY_FOR_SECONDS")
    if retry_for is None:
        retry_for = AppSettings().webhook_retry_for_seconds
    assert stack["Resources"][queue]["Properties"]["MessageRetentionPeriod"] > int(retry_for)


def test_every_function_may_make_the_aws_calls_its_code_makes(
    stack: dict[str, Any], template: dict[str, Any]
) -> None:
    # moto checks no IAM: a role that misses one of these fails only on AWS.
    ((delivery, queue),) = webhook_consumer(stack)
    (stream_consumer,) = consumers(stack, "AWS::DynamoDB::Table")
    sweep = "SweepFunction"  # the digest and the mail events functions have rules of their own
    assert sweep in scheduled(stack)
    api = the_api_function(template)
    # The sweep and the stream consumer enqueue deliveries (app.webhook_queue.send), and so does the API
    # for table talk's `message.posted` (talk items are not on the stream); moves never do.
    for function in (sweep, stream_consumer, api):
        assert told(stack, function, "WEBHOOK_QUEUE_URL") == {"Ref": queue}, function
        assert allows(stack, function, "sqs:SendMessageBatch", queue), function
    # The delivery function waits out retries by visibility, and dead-letters by itself.
    assert told(stack, delivery, "WEBHOOK_QUEUE_URL") == {"Ref": queue}
    assert allows(stack, delivery, "sqs:ChangeMessageVisibility", queue)
    dead_letters = told(stack, delivery, "WEBHOOK_DLQ_URL")["Ref"]
    assert allows(stack, delivery, "sqs:SendMessage", dead_letters)
    # Presigned GETs, and the presigned POST forms of custom card uploads, carry the API's signature.
    from app.decks.card_images import image_key, upload_key

    (bucket,) = of_type(stack, "AWS::S3::Bucket")
    assert told(stack, api, "CARD_BUCKET") == {"Ref": bucket}
    assert allows(stack, api, "s3:GetObject", bucket, image_key("base-001"))
    assert allows(stack, api, "s3:PutObject", bucket, upload_key("base-001"))
    assert not allows(stack, api, "s3:PutObject", bucket, image_key("base-001"))


def test_the_stack_outputs_what_clients_and_operators_need(stack: dict[str, Any]) -> None:
    outputs = stack["Outputs"]
    assert {"ApiUrl", "TableName", "CardBucketName", "NudgeTopicArn"} <= set(outputs)
    url = outputs["ApiUrl"]["Value"]["Fn::Sub"]
    (stage,) = of_type(stack, "AWS::ApiGateway::Stage").values()
    assert stage["Properties"]["StageName"] == {"Ref": "Stage"}
    assert "${Api}.execute-api" in url
    assert url.endswith("/${Stage}/")
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
