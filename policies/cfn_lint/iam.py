"""IAM: every permission the stack grants names its actions and the resources of this stack they act on."""

from __future__ import annotations

from functools import cache
from typing import Any

from cfnlint.rules import CloudFormationLintRule, RuleMatch
from cfnlint.template import Template

from policies.cfn_lint._stack import (
    as_list,
    policy_documents,
    properties,
    resources,
    resources_meant,
    stack_references,
    statements,
    text,
)

#: Resources that only exist at run time, so no stack can declare them, each scoped to this account and
#: region. Every other resource a policy names must be one of this stack's.
RUNTIME_RESOURCES = {
    # Mobile push endpoints: CreatePlatformEndpoint makes one per registered device.
    "arn:${AWS::Partition}:sns:${AWS::Region}:${AWS::AccountId}:endpoint/*",
    # Platform applications (APNs, FCM) hold push credentials, so they are set up outside the stack.
    "arn:${AWS::Partition}:sns:${AWS::Region}:${AWS::AccountId}:app/*",
}

#: Resources an operator sets up outside the stack and the stack is told of by a parameter, because no
#: stack can finish them: an SES identity is verified by a DNS record or a click on a mailed link, and a
#: SecureString parameter has no CloudFormation resource. Each is
#: scoped to this account and region, and names the one identity EmailFrom gives (the address or its domain).
OPERATOR_RESOURCES = {
    "arn:${AWS::Partition}:ses:${AWS::Region}:${AWS::AccountId}:identity/${EmailFrom}",
    "arn:${AWS::Partition}:ses:${AWS::Region}:${AWS::AccountId}:identity/${EmailFromDomain}",
    # The Web Push VAPID key: a SecureString parameter, which CloudFormation cannot create.
    "arn:${AWS::Partition}:ssm:${AWS::Region}:${AWS::AccountId}:parameter${WebPushVapidParameter}",
}

#: Actions IAM authorizes on no resource at all: reading the account's own SES suppression list. A
#: statement of these actions alone may (and must) say Resource "*"; with any other action it may not.
ACCOUNT_ACTIONS = {"ses:getsuppresseddestination"}

#: AWS managed policies a role may carry: the ones SAM attaches for logs, tracing and polling an event
#: source, each scoped by AWS to what that needs. Anything broader is written out in the stack.
MANAGED_POLICIES = {
    "AWSLambdaBasicExecutionRole",
    "AWSXrayWriteOnlyAccess",
    "AWSXRayDaemonWriteAccess",
    "AWSLambdaDynamoDBExecutionRole",
    "AWSLambdaSQSQueueExecutionRole",
    "AWSLambdaKinesisExecutionRole",
}


@cache
def _actions() -> dict[str, set[str]]:
    """Every IAM action by service prefix, lower case (cfn-lint's own list, which W3037 checks against)."""
    import cfnlint.data.AdditionalSpecs
    from cfnlint.helpers import load_resource

    services = load_resource(cfnlint.data.AdditionalSpecs, "Policies.json")
    return {
        prefix: {action.lower() for action in spec.get("Actions", {})} for prefix, spec in services.items()
    }


def _action_problem(action: str) -> str | None:
    if action == "*":
        return "grants every action"
    service, _, name = action.partition(":")
    if name == "*":
        return f"grants every {service} action"
    if "*" in name or "?" in name:
        # A wildcard may only extend one whole action (sqs:SendMessage* is SendMessage and
        # SendMessageBatch), never stand for a family of them (s3:Put*, s3:*Object).
        stem = name[:-1]
        if (
            not name.endswith("*")
            or "*" in stem
            or "?" in stem
            or stem.lower() not in _actions().get(service, set())
        ):
            return f"{action} stands for a family of actions"
    return None


class LeastPrivilege(CloudFormationLintRule):
    id = "E9310"
    shortdesc = "Policies name their actions and scope them to this stack's resources"
    description = (
        "Every Allow statement lists actions (no '*', no whole service, no wildcard standing for several "
        "verbs) and resources of this stack, by reference or by their name, resources only created at run "
        "time (RUNTIME_RESOURCES) or set up by an operator (OPERATOR_RESOURCES). No Resource '*' (but for "
        "a statement of ACCOUNT_ACTIONS alone), no NotAction/NotResource, and iam:PassRole only for this "
        "stack's roles."
    )
    source_url = "https://docs.aws.amazon.com/IAM/latest/UserGuide/best-practices.html#grant-least-privilege"
    tags = ["resources", "iam", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        template = cfn.template
        matches = []
        for holder, path, document in policy_documents(template):
            for index, statement in statements(document):
                if statement.get("Effect") != "Allow":
                    continue
                where = [*path, "Statement", index]
                for key in ("NotAction", "NotResource"):
                    if key in statement:
                        matches.append(RuleMatch([*where, key], f"{holder} allows by exclusion ({key})"))
                actions = [a for a in as_list(statement.get("Action")) if isinstance(a, str)]
                for action in actions:
                    problem = _action_problem(action)
                    if problem:
                        matches.append(RuleMatch([*where, "Action"], f"{holder}: {problem}"))
                account_wide = bool(actions) and all(a.lower() in ACCOUNT_ACTIONS for a in actions)
                for resource in as_list(statement.get("Resource")):
                    arn = text(resource)
                    if arn == "*" and account_wide:
                        continue
                    if arn == "*":
                        matches.append(
                            RuleMatch(
                                [*where, "Resource"],
                                f"{holder}: {', '.join(actions)} on every resource ('*')",
                            )
                        )
                    elif (
                        not resources_meant(template, resource)
                        and arn not in RUNTIME_RESOURCES
                        and arn not in OPERATOR_RESOURCES
                    ):
                        matches.append(
                            RuleMatch(
                                [*where, "Resource"],
                                f"{holder}: {arn or resource} is no resource of this stack",
                            )
                        )
                passes_roles = any(a.lower() in {"iam:passrole", "iam:*", "*"} for a in actions)
                roles = [
                    r
                    for r in as_list(statement.get("Resource"))
                    if resources_meant(template, r, "AWS::IAM::Role")
                ]
                if passes_roles and len(roles) != len(as_list(statement.get("Resource"))):
                    matches.append(
                        RuleMatch([*where, "Resource"], f"{holder} may pass roles not of this stack")
                    )
        return matches


def _managed_name(arn: Any) -> str | None:
    """The name of an AWS managed policy ARN (arn:<partition>:iam::aws:policy/...), else None."""
    value = text(arn)
    if value is None or ":iam::aws:policy/" not in value:
        return None
    return value.rsplit("/", 1)[-1]


class ManagedPoliciesAreNarrow(CloudFormationLintRule):
    id = "E9311"
    shortdesc = "Roles attach only the narrow AWS managed policies for logs, tracing and event sources"
    description = (
        "An AWS managed policy is not the stack's to scope: a role may only attach the ones listed in "
        "MANAGED_POLICIES (basic execution, X-Ray, polling an event source) and the stack's own."
    )
    source_url = "https://docs.aws.amazon.com/lambda/latest/dg/permissions-managed-policies.html"
    tags = ["resources", "iam", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        template = cfn.template
        matches = []
        for name, role in resources(template, "AWS::IAM::Role"):
            for index, arn in enumerate(as_list(properties(role).get("ManagedPolicyArns"))):
                path = ["Resources", name, "Properties", "ManagedPolicyArns", index]
                managed = _managed_name(arn)
                if managed is not None:
                    if managed not in MANAGED_POLICIES:
                        matches.append(RuleMatch(path, f"{name} attaches the AWS managed policy {managed}"))
                elif not stack_references(template, arn, "AWS::IAM::ManagedPolicy"):
                    matches.append(RuleMatch(path, f"{name} attaches a policy from outside the stack: {arn}"))
        return matches
