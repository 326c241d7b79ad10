"""The template's per-client limits (#25): a usage plan per API key, and an optional WAF rate rule per IP."""

from __future__ import annotations

from typing import Any

import pytest
from policies.stack import translate

from local_stack.template import load_template


def translated(**parameters: str) -> dict[str, Any]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AWS_DEFAULT_REGION", "us-east-1")
        return translate(load_template(), **parameters)


def of_type(stack: dict[str, Any], kind: str) -> dict[str, dict[str, Any]]:
    return {name: res for name, res in stack["Resources"].items() if res["Type"] == kind}


def test_the_waf_is_off_by_default_and_every_waf_resource_is_conditional() -> None:
    template = load_template()
    assert template["Parameters"]["WafRequestsPerIpPer5Minutes"]["Default"] == 0
    waf = {n: r for n, r in template["Resources"].items() if r["Type"].startswith("AWS::WAFv2::")}
    assert waf
    assert all(resource.get("Condition") == "WafWanted" for resource in waf.values())


def test_with_a_limit_a_rate_based_rule_per_ip_guards_the_api_stage() -> None:
    stack = translated(WafRequestsPerIpPer5Minutes="500")
    [acl] = of_type(stack, "AWS::WAFv2::WebACL").values()
    rate = next(r for r in acl["Properties"]["Rules"] if "RateBasedStatement" in r["Statement"])
    assert rate["Statement"]["RateBasedStatement"]["AggregateKeyType"] == "IP"
    assert rate["Action"] == {"Block": {}}
    [association] = of_type(stack, "AWS::WAFv2::WebACLAssociation").values()
    arn = association["Properties"]["ResourceArn"]["Fn::Sub"]
    assert arn.endswith("/restapis/${Api}/stages/${ApiStage}")


def test_a_usage_plan_throttles_each_api_key_when_keys_are_required() -> None:
    stack = translated(RequireApiKey="true")
    [plan] = of_type(stack, "AWS::ApiGateway::UsagePlan").values()
    assert plan["Properties"]["Throttle"] == {"BurstLimit": 20, "RateLimit": 10}
    assert plan["Properties"]["Quota"] == {"Limit": 20000, "Period": "DAY"}
