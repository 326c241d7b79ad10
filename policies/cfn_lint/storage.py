"""DynamoDB and S3: data that is recoverable, encrypted, private, reached over TLS, kept on stack deletion."""

from __future__ import annotations

import fnmatch
from typing import Any

from cfnlint.rules import CloudFormationLintRule, RuleMatch
from cfnlint.template import Template

from policies.cfn_lint._stack import (
    as_list,
    properties,
    resources,
    resources_meant,
    role_of_function,
    roles_of,
    stack_references,
    statements,
    text,
)

_RETAINED = {"Retain", "RetainExceptOnCreate", "Snapshot"}


def _retention(name: str, resource: dict[str, Any]) -> list[RuleMatch]:
    return [
        RuleMatch(
            ["Resources", name], f"{name} is deleted with the stack or on replacement ({policy} not Retain)"
        )
        for policy in ("DeletionPolicy", "UpdateReplacePolicy")
        if resource.get(policy) not in _RETAINED
    ]


class TablesAreRecoverable(CloudFormationLintRule):
    id = "E9320"
    shortdesc = "Tables have point-in-time recovery, encryption, a billing mode, and outlive the stack"
    description = (
        "Every DynamoDB table enables point-in-time recovery and SSE (a KMS key), is on-demand or states "
        "its capacity, and is retained when the stack is deleted or the table replaced."
    )
    source_url = (
        "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/best-practices-security.html"
    )
    tags = ["resources", "dynamodb", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        matches = []
        for name, table in resources(cfn.template, "AWS::DynamoDB::Table"):
            props = properties(table)
            path = ["Resources", name, "Properties"]
            pitr = props.get("PointInTimeRecoverySpecification") or {}
            if pitr.get("PointInTimeRecoveryEnabled") is not True:
                matches.append(RuleMatch(path, f"{name} has no point-in-time recovery"))
            if (props.get("SSESpecification") or {}).get("SSEEnabled") is not True:
                matches.append(RuleMatch(path, f"{name} is not encrypted with a KMS key (SSESpecification)"))
            if props.get("BillingMode") != "PAY_PER_REQUEST" and "ProvisionedThroughput" not in props:
                matches.append(RuleMatch(path, f"{name} is neither on-demand nor given a capacity"))
            matches += _retention(name, table)
        return matches


class IndexesProjectKeysOnly(CloudFormationLintRule):
    id = "E9321"
    shortdesc = "Secondary indexes project keys only"
    description = (
        "An index projecting attributes is written on every change of them; keys-only indexes are written "
        "only when an index key changes, and readers batch-get the items they list (app/due_index.py)."
    )
    source_url = "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-indexes-general.html"
    tags = ["resources", "dynamodb", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        matches = []
        for name, table in resources(cfn.template, "AWS::DynamoDB::Table"):
            for kind in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes"):
                for index, spec in enumerate(as_list(properties(table).get(kind))):
                    projection = (spec.get("Projection") or {}).get("ProjectionType")
                    if projection != "KEYS_ONLY":
                        matches.append(
                            RuleMatch(
                                ["Resources", name, "Properties", kind, index, "Projection"],
                                f"{name} index {spec.get('IndexName')} projects {projection or 'unsaid'}",
                            )
                        )
        return matches


class BucketsArePrivate(CloudFormationLintRule):
    id = "E9322"
    shortdesc = "Buckets block public access, encrypt, disable ACLs, and outlive the stack"
    description = (
        "Every S3 bucket turns on all four public access blocks, encrypts by default, enforces bucket-owner "
        "object ownership (no ACLs), and is retained when the stack is deleted or the bucket replaced."
    )
    source_url = "https://docs.aws.amazon.com/AmazonS3/latest/userguide/security-best-practices.html"
    tags = ["resources", "s3", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        matches = []
        for name, bucket in resources(cfn.template, "AWS::S3::Bucket"):
            props = properties(bucket)
            path = ["Resources", name, "Properties"]
            block = props.get("PublicAccessBlockConfiguration") or {}
            for setting in (
                "BlockPublicAcls",
                "BlockPublicPolicy",
                "IgnorePublicAcls",
                "RestrictPublicBuckets",
            ):
                if block.get(setting) is not True:
                    matches.append(RuleMatch(path, f"{name} does not turn on {setting}"))
            rules = as_list((props.get("BucketEncryption") or {}).get("ServerSideEncryptionConfiguration"))
            if not any(
                (rule.get("ServerSideEncryptionByDefault") or {}).get("SSEAlgorithm") for rule in rules
            ):
                matches.append(RuleMatch(path, f"{name} does not encrypt by default"))
            ownership = as_list((props.get("OwnershipControls") or {}).get("Rules"))
            if [rule.get("ObjectOwnership") for rule in ownership] != ["BucketOwnerEnforced"]:
                matches.append(RuleMatch(path, f"{name} lets ACLs decide object ownership"))
            matches += _retention(name, bucket)
        return matches


def _denies_plain_http(statement: dict[str, Any]) -> bool:
    condition = (statement.get("Condition") or {}).get("Bool") or {}
    principal = statement.get("Principal")
    return (
        statement.get("Effect") == "Deny"
        and principal in ("*", {"AWS": "*"})
        and any(action in ("*", "s3:*") for action in as_list(statement.get("Action")))
        and str(condition.get("aws:SecureTransport")).lower() == "false"
    )


class BucketsRequireTls(CloudFormationLintRule):
    id = "E9323"
    shortdesc = "Bucket policies refuse requests that do not use TLS"
    description = (
        "Every S3 bucket has a bucket policy that denies every action to everyone when aws:SecureTransport "
        "is false, on the bucket and on its objects."
    )
    source_url = "https://docs.aws.amazon.com/AmazonS3/latest/userguide/security-best-practices.html"
    tags = ["resources", "s3", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        template = cfn.template
        covered: dict[str, set[str]] = {}
        for _, policy in resources(template, "AWS::S3::BucketPolicy"):
            props = properties(policy)
            for bucket in stack_references(template, props.get("Bucket"), "AWS::S3::Bucket"):
                for _, statement in statements(props.get("PolicyDocument")):
                    if _denies_plain_http(statement):
                        for resource in as_list(statement.get("Resource")):
                            arn = text(resource) or ""
                            covered.setdefault(bucket, set()).add(
                                "objects" if arn.endswith("/*") else "bucket"
                            )
        return [
            RuleMatch(["Resources", name], f"{name} accepts plain HTTP requests on its {part}")
            for name, _ in resources(template, "AWS::S3::Bucket")
            for part in ("bucket", "objects")
            if part not in covered.get(name, set())
        ]


_CREATES_OBJECTS = {"*", "s3:*", "s3:put*", "s3:putobject", "s3:putobject*"}


def _key_glob(arn: str) -> str | None:
    """The object keys of an S3 ARN: ``uploads/*`` for ``arn:...:s3:::bucket/uploads/*`` or
    ``${Bucket.Arn}/uploads/*``; None for the bucket itself."""
    rest = arn.split(":::", 1)[1] if ":::" in arn else arn
    _, slash, key = rest.partition("/")
    return key if slash else None


class NoRecursiveUploads(CloudFormationLintRule):
    id = "E9324"
    shortdesc = "A function notified of new objects cannot create objects where it is notified"
    description = (
        "When a bucket notifies a function of ObjectCreated events under a prefix, that function's role may "
        "not put objects under that prefix: each object it wrote would invoke it again, without end."
    )
    source_url = "https://docs.aws.amazon.com/lambda/latest/dg/with-s3.html"
    tags = ["resources", "s3", "lambda", "iam", "policy"]

    def match(self, cfn: Template) -> list[RuleMatch]:
        template = cfn.template
        matches = []
        for bucket, resource in resources(template, "AWS::S3::Bucket"):
            notifications = (properties(resource).get("NotificationConfiguration") or {}).get(
                "LambdaConfigurations"
            )
            for notification in as_list(notifications):
                if not str(notification.get("Event", "")).startswith("s3:ObjectCreated:"):
                    continue
                rules = as_list(((notification.get("Filter") or {}).get("S3Key") or {}).get("Rules"))
                prefix = next(
                    (str(r.get("Value")) for r in rules if str(r.get("Name")).lower() == "prefix"), ""
                )
                for function in stack_references(
                    template, notification.get("Function"), "AWS::Lambda::Function"
                ):
                    role = role_of_function(template, function)
                    if role is None:
                        continue
                    for path, document in roles_of(template, role):
                        for index, statement in statements(document):
                            actions = {str(a).lower() for a in as_list(statement.get("Action"))}
                            if statement.get("Effect") != "Allow" or not actions & _CREATES_OBJECTS:
                                continue
                            for resource_arn in as_list(statement.get("Resource")):
                                if bucket not in resources_meant(template, resource_arn, "AWS::S3::Bucket"):
                                    continue
                                glob = _key_glob(text(resource_arn) or "")
                                if glob is not None and _overlaps(glob, prefix):
                                    matches.append(
                                        RuleMatch(
                                            [*path, "Statement", index, "Resource"],
                                            f"{function} is invoked for new objects under '{prefix}' of "
                                            f"{bucket} and may put objects at '{glob}'",
                                        )
                                    )
        return matches


def _overlaps(glob: str, prefix: str) -> bool:
    """Whether some key matching ``glob`` starts with ``prefix``."""
    literal = glob.split("*", 1)[0].split("?", 1)[0]
    if literal.startswith(prefix):
        return True
    return prefix.startswith(literal) and ("*" in glob or fnmatch.fnmatchcase(prefix, glob))
