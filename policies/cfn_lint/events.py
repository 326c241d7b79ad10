"""EventBridge schedules: enabled, aimed at this stack's functions, and allowed to invoke them."""

from __future__ import annotations

from cfnlint.rules import CloudFormationLintRule, RuleMatch
from cfnlint.template import Template

from policies.cfn_lint._stack import as_list, properties, resources, stack_references


class SchedulesReachTheirFunctions(CloudFormationLintRule):
    id = "E9350"
    shortdesc = "Schedules are enabled and invoke functions of this stack that let them"
    description = (
        "Every scheduled EventBridge rule is enabled and targets resources of this stack; for each "
        "function it targets, a Lambda permission lets events.amazonaws.com invoke it from that rule."
    )
    source_url = "https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-use-resource-based.html"
    tags = ["resources", "events", "lambda", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        template = cfn.template
        allowed = set()
        for _, permission in resources(template, "AWS::Lambda::Permission"):
            props = properties(permission)
            if (
                props.get("Principal") != "events.amazonaws.com"
                or props.get("Action") != "lambda:InvokeFunction"
            ):
                continue
            for function in stack_references(template, props.get("FunctionName"), "AWS::Lambda::Function"):
                for source in stack_references(template, props.get("SourceArn"), "AWS::Events::Rule"):
                    allowed.add((source, function))
        matches = []
        for name, rule in resources(template, "AWS::Events::Rule"):
            props = properties(rule)
            if "ScheduleExpression" not in props:
                continue
            path = ["Resources", name, "Properties"]
            if props.get("State", "ENABLED") != "ENABLED":
                matches.append(RuleMatch(path, f"{name} never runs (State {props.get('State')})"))
            for index, target in enumerate(as_list(props.get("Targets"))):
                arn = target.get("Arn")
                if not stack_references(template, arn):
                    matches.append(
                        RuleMatch([*path, "Targets", index], f"{name} targets nothing of this stack")
                    )
                for function in stack_references(template, arn, "AWS::Lambda::Function"):
                    if (name, function) not in allowed:
                        matches.append(
                            RuleMatch(
                                [*path, "Targets", index], f"{name} may not invoke {function} (no permission)"
                            )
                        )
        return matches
