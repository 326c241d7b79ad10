"""What the rules share: reading a plain CloudFormation template (the SAM transform already applied).

cfn-lint loads every rule module in this folder by file name; this one starts with ``_`` so it is not
taken for a rule module, and it defines no rule class (cfn-lint would run any it finds imported).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from cfnlint.rules import RuleMatch

Path = list[str | int]

_SUB_VARIABLE = re.compile(r"\$\{([^}!][^}]*)\}")

#: Properties that give a resource the physical name its ARN spells out.
NAME_PROPERTIES = {
    "AWS::S3::Bucket": "BucketName",
    "AWS::DynamoDB::Table": "TableName",
    "AWS::SNS::Topic": "TopicName",
    "AWS::SQS::Queue": "QueueName",
    "AWS::Lambda::Function": "FunctionName",
    "AWS::IAM::Role": "RoleName",
    "AWS::Logs::LogGroup": "LogGroupName",
}


def resources(template: Mapping[str, Any], *types: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """(logical id, resource) of every resource of one of ``types`` (every resource without types)."""
    for name, resource in (template.get("Resources") or {}).items():
        if isinstance(resource, dict) and (not types or resource.get("Type") in types):
            yield str(name), resource


def properties(resource: Mapping[str, Any]) -> dict[str, Any]:
    value = resource.get("Properties")
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def as_json(value: Any) -> Any:
    """A JSON document given either as an object or, as CloudFormation also accepts, as a string."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return None
    return value


def references(node: Any) -> set[str]:
    """Logical ids ``node`` refers to (``Ref``, ``Fn::GetAtt``, ``Fn::Sub``), pseudo parameters left out."""
    found: set[str] = set()
    if isinstance(node, list):
        for item in node:
            found |= references(item)
    elif isinstance(node, dict):
        for key, value in node.items():
            if key == "Ref" and isinstance(value, str):
                found.add(value)
            elif key == "Fn::GetAtt":
                target = value.split(".", 1)[0] if isinstance(value, str) else as_list(value)[0]
                if isinstance(target, str):
                    found.add(target)
            elif key == "Fn::Sub":
                text, variables = (value[0], value[1]) if isinstance(value, list) else (value, {})
                local = set(variables) if isinstance(variables, dict) else set()
                if isinstance(text, str):
                    found |= {
                        name.split(".", 1)[0]
                        for name in _SUB_VARIABLE.findall(text)
                        if name.split(".", 1)[0] not in local
                    }
                found |= references(variables)
            else:
                found |= references(value)
    return {name for name in found if not name.startswith("AWS::")}


def reference(node: Any) -> str | None:
    """The logical id of a plain ``Ref`` or ``Fn::GetAtt``, else None."""
    if isinstance(node, dict) and len(node) == 1 and ("Ref" in node or "Fn::GetAtt" in node):
        return next(iter(references(node)), None)
    return None


def text(node: Any) -> str | None:
    """A literal string, or the template of an ``Fn::Sub`` (``${...}`` left as written)."""
    if isinstance(node, str):
        return node
    if isinstance(node, dict) and set(node) == {"Fn::Sub"}:
        value = node["Fn::Sub"]
        template = value[0] if isinstance(value, list) else value
        return template if isinstance(template, str) else None
    return None


def stack_references(template: Mapping[str, Any], node: Any, *types: str) -> set[str]:
    """The resources of this stack (of one of ``types``, if given) that ``node`` refers to."""
    declared = {name for name, _ in resources(template, *types)}
    return references(node) & declared


def named_in(template: Mapping[str, Any], node: Any, *types: str) -> set[str]:
    """Resources whose physical name (``BucketName`` ...) an ARN in ``node`` spells out, as ARN parts."""
    arn = text(node)
    if arn is None:
        return set()
    found = set()
    for name, resource in resources(template, *(types or tuple(NAME_PROPERTIES))):
        physical = text(properties(resource).get(NAME_PROPERTIES.get(str(resource.get("Type")), "")))
        if physical and re.search(rf"(^|[:/]){re.escape(physical)}($|[:/])", arn):
            found.add(name)
    return found


def resources_meant(template: Mapping[str, Any], node: Any, *types: str) -> set[str]:
    """Resources of this stack that ``node`` points at, by reference or by spelling out their name."""
    return stack_references(template, node, *types) | named_in(template, node, *types)


def statements(document: Any) -> Iterator[tuple[int, dict[str, Any]]]:
    """(index, statement) of a policy document's statements."""
    document = as_json(document)
    if isinstance(document, dict):
        for index, statement in enumerate(as_list(document.get("Statement"))):
            if isinstance(statement, dict):
                yield index, statement


def policy_documents(template: Mapping[str, Any]) -> Iterator[tuple[str, Path, Any]]:
    """(holder, path, document) of every identity policy the stack declares (role inline policies too)."""
    for name, resource in resources(
        template, "AWS::IAM::Role", "AWS::IAM::Policy", "AWS::IAM::ManagedPolicy"
    ):
        props = properties(resource)
        if resource["Type"] == "AWS::IAM::Role":
            for index, policy in enumerate(as_list(props.get("Policies"))):
                if isinstance(policy, dict):
                    yield (
                        name,
                        ["Resources", name, "Properties", "Policies", index, "PolicyDocument"],
                        policy.get("PolicyDocument"),
                    )
        else:
            yield name, ["Resources", name, "Properties", "PolicyDocument"], props.get("PolicyDocument")


def roles_of(template: Mapping[str, Any], role: str) -> Iterator[tuple[Path, Any]]:
    """(path, document) of every policy that applies to ``role``: its inline ones and attached stack ones."""
    for holder, path, document in policy_documents(template):
        if holder == role:
            yield path, document
    for name, resource in resources(template, "AWS::IAM::Policy"):
        if role in stack_references(template, properties(resource).get("Roles"), "AWS::IAM::Role"):
            yield (
                ["Resources", name, "Properties", "PolicyDocument"],
                properties(resource).get("PolicyDocument"),
            )
    for name, resource in resources(template, "AWS::IAM::ManagedPolicy"):
        if role in stack_references(template, properties(resource).get("Roles"), "AWS::IAM::Role"):
            yield (
                ["Resources", name, "Properties", "PolicyDocument"],
                properties(resource).get("PolicyDocument"),
            )


def role_of_function(template: Mapping[str, Any], function: str) -> str | None:
    resource = (template.get("Resources") or {}).get(function) or {}
    roles = stack_references(template, properties(resource).get("Role"), "AWS::IAM::Role")
    return next(iter(roles), None)


def match(path: Path, message: str) -> RuleMatch:
    return RuleMatch(path, message)
