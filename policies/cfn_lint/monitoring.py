"""Monitoring: every function, stream consumer and alarm is watched, and every alarm tells someone."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from cfnlint.rules import CloudFormationLintRule, RuleMatch
from cfnlint.template import Template

from policies.cfn_lint._stack import as_list, properties, resources, stack_references

_SOURCE = "https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/Best_Practice_Recommended_Alarms_AWS_Services.html"


def _metrics(alarm: Mapping[str, Any]) -> Iterator[tuple[str, str, list[Any]]]:
    """(namespace, metric name, dimensions) of every metric an alarm reads, plain or in metric math."""
    props = properties(alarm)
    if props.get("MetricName"):
        yield str(props.get("Namespace")), str(props["MetricName"]), as_list(props.get("Dimensions"))
    for query in as_list(props.get("Metrics")):
        metric = ((query or {}).get("MetricStat") or {}).get("Metric") or {}
        if metric.get("MetricName"):
            yield str(metric.get("Namespace")), str(metric["MetricName"]), as_list(metric.get("Dimensions"))


def _watched(template: Mapping[str, Any], namespace: str, metric: str, dimension: str) -> set[str]:
    """The stack's resources whose `metric` some alarm reads, found by the dimension that names them."""
    found: set[str] = set()
    for _, alarm in resources(template, "AWS::CloudWatch::Alarm"):
        for space, name, dimensions in _metrics(alarm):
            if (space, name) != (namespace, metric):
                continue
            for entry in dimensions:
                if isinstance(entry, dict) and entry.get("Name") == dimension:
                    found |= stack_references(template, entry.get("Value"))
    return found


def _actions(alarm: Mapping[str, Any], key: str) -> str:
    return json.dumps(as_list(properties(alarm).get(key)), sort_keys=True)


class FunctionsAlarmOnFailures(CloudFormationLintRule):
    id = "E9360"
    shortdesc = "Every function alarms on its errors and its throttles"
    description = (
        "Each Lambda function has an alarm reading its AWS/Lambda Errors and one reading its Throttles "
        "(one metric-math alarm may read both): a function that fails or is refused concurrency otherwise "
        "fails in silence, whoever invoked it."
    )
    source_url = _SOURCE
    tags = ["resources", "lambda", "cloudwatch", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        template = cfn.template
        matches = []
        for metric in ("Errors", "Throttles"):
            watched = _watched(template, "AWS/Lambda", metric, "FunctionName")
            for name, _ in resources(template, "AWS::Lambda::Function"):
                if name not in watched:
                    matches.append(RuleMatch(["Resources", name], f"no alarm reads {name}'s {metric}"))
        return matches


class StreamConsumersAlarmOnLag(CloudFormationLintRule):
    id = "E9361"
    shortdesc = "A stream consumer alarms on its iterator age"
    description = (
        "A function reading a DynamoDB or Kinesis stream has an alarm on its IteratorAge: a consumer that "
        "falls behind raises no error, and its records expire after 24 hours."
    )
    source_url = "https://docs.aws.amazon.com/lambda/latest/dg/monitoring-metrics-types.html"
    tags = ["resources", "lambda", "cloudwatch", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        template = cfn.template
        watched = _watched(template, "AWS/Lambda", "IteratorAge", "FunctionName")
        matches = []
        for name, mapping in resources(template, "AWS::Lambda::EventSourceMapping"):
            props = properties(mapping)
            streams = stack_references(
                template, props.get("EventSourceArn"), "AWS::DynamoDB::Table", "AWS::Kinesis::Stream"
            )
            functions = stack_references(template, props.get("FunctionName"), "AWS::Lambda::Function")
            for function in sorted(functions - watched) if streams else []:
                matches.append(RuleMatch(["Resources", name], f"no alarm reads {function}'s IteratorAge"))
        return matches


class AlarmsTellTheSamePeople(CloudFormationLintRule):
    id = "E9362"
    shortdesc = "Every alarm notifies the same targets"
    description = (
        "When one alarm has AlarmActions, every alarm has the same ones (and the same OKActions): an alarm "
        "left out pages nobody, which is found out only on the day it fires."
    )
    source_url = _SOURCE
    tags = ["resources", "cloudwatch", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        alarms = list(resources(cfn.template, "AWS::CloudWatch::Alarm"))
        matches = []
        for key in ("AlarmActions", "OKActions"):
            targets = {name: _actions(alarm, key) for name, alarm in alarms}
            wanted = max(targets.values(), key=len, default="[]")
            for name, actions in targets.items():
                if actions != wanted:
                    matches.append(RuleMatch(["Resources", name, "Properties"], f"{name}'s {key} differ"))
        return matches


class TheStackHasADashboard(CloudFormationLintRule):
    id = "E9363"
    shortdesc = "The stack has a CloudWatch dashboard whose body is valid JSON with widgets"
    description = "An operator opening the console finds the service's health in one place."
    source_url = "https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/CloudWatch-Dashboard-Body-Structure.html"
    tags = ["resources", "cloudwatch", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        dashboards = list(resources(cfn.template, "AWS::CloudWatch::Dashboard"))
        if not dashboards:
            return [RuleMatch(["Resources"], "the stack has no AWS::CloudWatch::Dashboard")]
        matches = []
        for name, dashboard in dashboards:
            body = properties(dashboard).get("DashboardBody")
            text = body.get("Fn::Sub") if isinstance(body, dict) else body
            text = text[0] if isinstance(text, list) else text
            try:
                widgets = json.loads(text)["widgets"] if isinstance(text, str) else None
            except (ValueError, KeyError, TypeError):
                widgets = None
            if not widgets:
                matches.append(RuleMatch(["Resources", name], f"{name}'s body is not JSON with widgets"))
        return matches
