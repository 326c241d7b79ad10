"""template.yaml's SnapStart parameter: off changes nothing; on snapshots the API function's published
version and API Gateway calls that version (through its alias), never $LATEST."""

from __future__ import annotations

from typing import Any

import pytest
from policies.stack import translate

from local_stack.template import load_template

API = "ApiFunction"


def _translated(**parameters: str) -> dict[str, Any]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AWS_DEFAULT_REGION", "us-east-1")  # the translator wants a region
        return translate(load_template(), **parameters)


@pytest.fixture(scope="module")
def default_stack() -> dict[str, Any]:
    return _translated()


@pytest.fixture(scope="module")
def snapstart_stack() -> dict[str, Any]:
    return _translated(SnapStart="true")


def _of_type(stack: dict[str, Any], kind: str) -> dict[str, dict[str, Any]]:
    return {name: resource for name, resource in stack["Resources"].items() if resource["Type"] == kind}


def _integration_uris(stack: dict[str, Any]) -> set[str]:
    body = stack["Resources"]["Api"]["Properties"]["Body"]
    return {
        operation["x-amazon-apigateway-integration"]["uri"]["Fn::Sub"]
        for path in body["paths"].values()
        for method, operation in path.items()
        if method != "options" and "x-amazon-apigateway-integration" in operation
    }


def _live_alias(stack: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    aliases = {
        name: alias
        for name, alias in _of_type(stack, "AWS::Lambda::Alias").items()
        if alias["Properties"]["FunctionName"] == {"Ref": API}
    }
    assert len(aliases) == 1, aliases
    return next(iter(aliases.items()))


def test_snapstart_is_off_unless_asked(default_stack: dict[str, Any]) -> None:
    assert _translated(SnapStart="false") == default_stack
    for name, function in _of_type(default_stack, "AWS::Lambda::Function").items():
        assert "SnapStart" not in function["Properties"], name
    assert _of_type(default_stack, "AWS::Lambda::Version") == {}
    assert _of_type(default_stack, "AWS::Lambda::Alias") == {}


def test_off_api_gateway_calls_the_function_itself(default_stack: dict[str, Any]) -> None:
    assert _integration_uris(default_stack) == {
        "arn:aws:apigateway:${AWS::Region}:lambda:path/2015-03-31/functions/${ApiFunction.Arn}/invocations"
    }


def test_on_the_api_function_snapshots_its_published_versions(snapstart_stack: dict[str, Any]) -> None:
    assert snapstart_stack["Resources"][API]["Properties"]["SnapStart"] == {"ApplyOn": "PublishedVersions"}
    _, alias = _live_alias(snapstart_stack)
    version = alias["Properties"]["FunctionVersion"]["Fn::GetAtt"]
    assert snapstart_stack["Resources"][version[0]]["Type"] == "AWS::Lambda::Version"
    assert snapstart_stack["Resources"][version[0]]["Properties"]["FunctionName"] == {"Ref": API}


def test_on_only_the_api_function_pays_for_a_snapshot(snapstart_stack: dict[str, Any]) -> None:
    with_snapstart = {
        name
        for name, function in _of_type(snapstart_stack, "AWS::Lambda::Function").items()
        if "SnapStart" in function["Properties"]
    }
    assert with_snapstart == {API}


def test_on_a_deploy_deletes_the_version_it_replaces_and_its_cached_snapshot(
    snapstart_stack: dict[str, Any],
) -> None:
    for name, version in _of_type(snapstart_stack, "AWS::Lambda::Version").items():
        assert version.get("DeletionPolicy") == "Delete", name


def test_on_api_gateway_calls_the_alias_of_the_snapshotted_version(snapstart_stack: dict[str, Any]) -> None:
    alias, _ = _live_alias(snapstart_stack)
    assert _integration_uris(snapstart_stack) == {
        f"arn:aws:apigateway:${{AWS::Region}}:lambda:path/2015-03-31/functions/${{{alias}}}/invocations"
    }
    # The REST API's permissions (the live channel's WebSocket API invokes LiveFunction, not snapshotted).
    permissions = [
        permission["Properties"]
        for permission in _of_type(snapstart_stack, "AWS::Lambda::Permission").values()
        if permission["Properties"]["Principal"] == "apigateway.amazonaws.com"
        and permission["Properties"]["FunctionName"] != {"Ref": "LiveFunction"}
    ]
    assert permissions
    assert all(permission["FunctionName"] == {"Ref": alias} for permission in permissions)


def test_on_changes_nothing_but_the_api_function_its_version_and_alias_and_what_calls_them(
    default_stack: dict[str, Any], snapstart_stack: dict[str, Any]
) -> None:
    before, after = default_stack["Resources"], snapstart_stack["Resources"]
    alias, _ = _live_alias(snapstart_stack)
    versions = set(_of_type(snapstart_stack, "AWS::Lambda::Version"))
    deployments = set(_of_type(snapstart_stack, "AWS::ApiGateway::Deployment"))
    assert set(after) - set(before) == {alias, *versions, *deployments}
    # The integrations' URIs change the API's body, so its deployment (named after the body) and the stage.
    calling = {"Api", "ApiStage", *_of_type(default_stack, "AWS::ApiGateway::Deployment")}
    calling |= {name for name in _of_type(default_stack, "AWS::Lambda::Permission") if name.startswith(API)}
    changed = {name for name, resource in before.items() if after.get(name) != resource}
    assert changed == {API} | calling
    function_before, function_after = before[API]["Properties"], after[API]["Properties"]
    assert {key: value for key, value in function_after.items() if key != "SnapStart"} == function_before
