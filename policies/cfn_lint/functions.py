"""Lambda functions: explicit limits, tracing, a log group that expires, layers built for them."""

from __future__ import annotations

import re
from typing import Any

from cfnlint.rules import CloudFormationLintRule, RuleMatch
from cfnlint.template import Template

from policies.cfn_lint._stack import as_list, properties, reference, resources, stack_references, text

_SOURCE = "https://docs.aws.amazon.com/lambda/latest/dg/best-practices.html"


class FunctionLimitsAndTracing(CloudFormationLintRule):
    id = "E9301"
    shortdesc = "Functions set their timeout and memory and are traced"
    description = (
        "Every Lambda function states its Timeout and MemorySize (Lambda's defaults, 3 s and 128 MB, are "
        "never what was meant) and runs with active X-Ray tracing."
    )
    source_url = _SOURCE
    tags = ["resources", "lambda", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        matches = []
        for name, resource in resources(cfn.template, "AWS::Lambda::Function"):
            props = properties(resource)
            path = ["Resources", name, "Properties"]
            for key in ("Timeout", "MemorySize"):
                if key not in props:
                    matches.append(RuleMatch([*path], f"{name} leaves {key} at Lambda's default"))
            if (props.get("TracingConfig") or {}).get("Mode") != "Active":
                matches.append(
                    RuleMatch([*path, "TracingConfig"], f"{name} does not trace (TracingConfig Active)")
                )
        return matches


def _log_group_function(template: dict[str, Any], log_group: dict[str, Any]) -> str | None:
    """The function whose default log group (``/aws/lambda/<name>``) this log group is, if any."""
    name = properties(log_group).get("LogGroupName")
    sub = text(name)
    if sub is not None:
        found = re.fullmatch(r"/aws/lambda/\$\{([A-Za-z0-9]+)\}", sub)
        return found.group(1) if found else None
    if isinstance(name, dict) and "Fn::Join" in name:
        separator, parts = name["Fn::Join"]
        if separator == "" and len(parts) == 2 and parts[0] == "/aws/lambda/":
            return reference(parts[1])
    return None


class FunctionLogsExpire(CloudFormationLintRule):
    id = "E9302"
    shortdesc = "Every function logs to a log group of the stack, and every log group expires"
    description = (
        "Each Lambda function has its log group in the stack (its LoggingConfig names one, or one is "
        "called /aws/lambda/<function>): otherwise Lambda creates the group itself, and keeps its logs "
        "forever. Every log group sets RetentionInDays."
    )
    source_url = "https://docs.aws.amazon.com/lambda/latest/dg/monitoring-cloudwatchlogs.html"
    tags = ["resources", "lambda", "logs", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        template = cfn.template
        matches = []
        logged = set()
        for name, group in resources(template, "AWS::Logs::LogGroup"):
            if "RetentionInDays" not in properties(group):
                matches.append(RuleMatch(["Resources", name, "Properties"], f"{name} keeps its logs forever"))
            owner = _log_group_function(template, group)
            if owner:
                logged.add(owner)
        for name, function in resources(template, "AWS::Lambda::Function"):
            config = properties(function).get("LoggingConfig") or {}
            if stack_references(template, config.get("LogGroup"), "AWS::Logs::LogGroup"):
                continue
            if name not in logged:
                matches.append(
                    RuleMatch(
                        ["Resources", name],
                        f"{name} has no log group in the stack: Lambda would create one that never expires",
                    )
                )
        return matches


# Layers published per runtime and architecture say so in their name, as the Powertools layers do
# (AWSLambdaPowertoolsPythonV3-python313-arm64).
_LAYER_NAME_TARGET = re.compile(r":layer:[^:]*-python(\d)(\d+)-(arm64|x86_64)(:|$)")


class LayersFitTheirFunctions(CloudFormationLintRule):
    id = "E9303"
    shortdesc = "Every layer is built for the runtime and architecture of the functions using it"
    description = (
        "A layer of the stack lists the function's runtime and architecture among its compatible ones; "
        "a published layer whose name states a runtime and architecture (...-python313-arm64) states the "
        "function's. Native code built for another target only fails when first imported."
    )
    source_url = "https://docs.aws.amazon.com/lambda/latest/dg/chapter-layers.html"
    tags = ["resources", "lambda", "layers", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        template = cfn.template
        matches = []
        for name, function in resources(template, "AWS::Lambda::Function"):
            props = properties(function)
            runtime = props.get("Runtime")
            architecture = (as_list(props.get("Architectures")) or ["x86_64"])[0]
            for index, layer in enumerate(as_list(props.get("Layers"))):
                path = ["Resources", name, "Properties", "Layers", index]
                own = next(iter(stack_references(template, layer, "AWS::Lambda::LayerVersion")), None)
                if own is not None:
                    layer_props = properties(template["Resources"][own])
                    if runtime not in as_list(layer_props.get("CompatibleRuntimes")):
                        matches.append(RuleMatch(path, f"{own} does not list {name}'s runtime {runtime}"))
                    if architecture not in as_list(layer_props.get("CompatibleArchitectures")):
                        matches.append(
                            RuleMatch(path, f"{own} does not list {name}'s architecture {architecture}")
                        )
                    continue
                arn = text(layer) or ""
                target = _LAYER_NAME_TARGET.search(arn)
                if target:
                    major, minor, built_for = target.group(1), target.group(2), target.group(3)
                    if (f"python{major}.{minor}", built_for) != (runtime, architecture):
                        matches.append(
                            RuleMatch(
                                path,
                                f"{name} runs {runtime} on {architecture}, its layer is built for "
                                f"python{major}.{minor} on {built_for}",
                            )
                        )
        return matches
