"""Read ``template.yaml``: CloudFormation short-form tags, routes, functions, schedules, conditions.

The local stack derives everything from the template itself, so the twin cannot drift from what is
deployed: the routes it serves are the ``Api`` events of ``ApiFunction``, the schedules are the
``Schedule`` events, the environment is ``Globals`` plus each function's own ``Environment``.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from local_stack import REPO_ROOT

TEMPLATE_PATH = REPO_ROOT / "template.yaml"


def loads_template(text: str) -> dict[str, Any]:
    """Parse a CloudFormation/SAM template (YAML or JSON) with cfn-lint's own loader.

    Short-form tags become long-form intrinsics (``!GetAtt A.B`` is ``{"Fn::GetAtt": ["A", "B"]}``) and,
    as in CloudFormation, ``2010-09-09`` stays a string.
    """
    from cfnlint.decode import cfn_yaml

    document = cfn_yaml.loads(text)
    if not isinstance(document, dict):
        raise ValueError("a template is a YAML mapping")
    # cfn-lint's nodes carry source marks; plain JSON values are what the stack resolves and compares.
    plain: dict[str, Any] = json.loads(json.dumps(document, default=str))
    return plain


def load_template(path: Path | str | None = None) -> dict[str, Any]:
    """Load ``template.yaml`` (by default the repository's) into a dict with long-form intrinsics."""
    return loads_template(Path(path or TEMPLATE_PATH).read_text(encoding="utf-8"))


# --------------------------------------------------------------------------------------------------
# Parameters, conditions and AWS::LanguageExtensions' Fn::If resolution


def parameter_values(
    template: Mapping[str, Any], overrides: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Every parameter's value: its ``Default`` (as a string, like CloudFormation) unless overridden."""
    values: dict[str, str] = {}
    for name, spec in (template.get("Parameters") or {}).items():
        if isinstance(spec, dict) and "Default" in spec:
            values[name] = str(spec["Default"])
    values.update(overrides or {})
    return values


def evaluate_conditions(template: Mapping[str, Any], parameters: Mapping[str, str]) -> dict[str, bool]:
    """Evaluate the template's ``Conditions`` for the given parameter values."""
    raw: dict[str, Any] = dict(template.get("Conditions") or {})
    results: dict[str, bool] = {}

    def value_of(node: Any) -> Any:
        if isinstance(node, dict) and set(node) == {"Ref"}:
            name = node["Ref"]
            if name not in parameters:
                raise ValueError(f"condition refers to {name!r}, which has no value")
            return parameters[name]
        return node

    def truth(node: Any) -> bool:
        if isinstance(node, dict) and len(node) == 1:
            ((fn, args),) = node.items()
            if fn == "Condition":
                return condition(str(args))
            if fn == "Fn::Equals":
                left, right = (value_of(arg) for arg in args)
                return str(left) == str(right)
            if fn == "Fn::Not":
                return not truth(args[0])
            if fn == "Fn::And":
                return all(truth(arg) for arg in args)
            if fn == "Fn::Or":
                return any(truth(arg) for arg in args)
        raise ValueError(f"cannot evaluate condition {node!r}")

    def condition(name: str) -> bool:
        if name not in results:
            results[name] = truth(raw[name])
        return results[name]

    for name in raw:
        condition(name)
    return results


_NO_VALUE = object()


def apply_language_extensions(
    template: Mapping[str, Any], overrides: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """What ``AWS::LanguageExtensions`` does before the SAM transform, as far as this template needs it.

    Resolves every ``Fn::If`` whose condition is known from the parameter values, drops properties that
    resolve to ``AWS::NoValue`` and removes the transform from ``Transform``. Returns a new template.
    """
    conditions = evaluate_conditions(template, parameter_values(template, overrides))

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            if set(node) == {"Fn::If"}:
                name, when_true, when_false = node["Fn::If"]
                return walk(when_true if conditions[name] else when_false)
            if node == {"Ref": "AWS::NoValue"}:
                return _NO_VALUE
            out = {}
            for key, value in node.items():
                resolved = walk(value)
                if resolved is not _NO_VALUE:
                    out[key] = resolved
            return out
        if isinstance(node, list):
            return [item for item in (walk(value) for value in node) if item is not _NO_VALUE]
        return node

    resolved: dict[str, Any] = walk(copy.deepcopy(dict(template)))
    transform = resolved.get("Transform")
    if isinstance(transform, list):
        remaining = [name for name in transform if name != "AWS::LanguageExtensions"]
        resolved["Transform"] = remaining[0] if len(remaining) == 1 else remaining
    return resolved


def resolve_refs(node: Any, refs: Mapping[str, Any]) -> Any:
    """Replace ``Ref``, ``Fn::Sub`` (``${Name}`` only) and ``Fn::GetAtt`` found in ``refs``.

    ``refs`` maps a parameter or logical id to its value, and ``"Logical.Attr"`` to an attribute.
    Anything it cannot resolve is returned unchanged.
    """
    if isinstance(node, list):
        return [resolve_refs(item, refs) for item in node]
    if not isinstance(node, dict):
        return node
    if set(node) == {"Ref"} and node["Ref"] in refs:
        return refs[node["Ref"]]
    if set(node) == {"Fn::GetAtt"}:
        key = ".".join(str(part) for part in node["Fn::GetAtt"])
        return refs.get(key, node)
    if set(node) == {"Fn::Sub"} and isinstance(node["Fn::Sub"], str):
        text: str = node["Fn::Sub"]
        names = re.findall(r"\$\{([^}!]+)\}", text)
        if all(name in refs for name in names):
            return re.sub(r"\$\{([^}!]+)\}", lambda match: str(refs[match.group(1)]), text)
        return node
    return {key: resolve_refs(value, refs) for key, value in node.items()}


# --------------------------------------------------------------------------------------------------
# Routes and functions


@dataclass(frozen=True)
class Route:
    """One ``Api`` event: an HTTP method (upper case, or ``ANY``) on a path template."""

    method: str
    path: str
    function: str
    event: str


@dataclass(frozen=True)
class ScheduleSpec:
    """One ``Schedule`` (or ``ScheduleV2``) event of a function."""

    name: str
    expression: str
    enabled: bool = True


@dataclass(frozen=True)
class StreamSpec:
    """One ``DynamoDB`` event of a function: the event source mapping on a table's stream."""

    name: str
    table: str  # the logical id of the table whose ``StreamArn`` the event reads
    starting_position: str = "LATEST"
    batch_size: int = 100
    maximum_retry_attempts: int = 10_000  # the mapping's default is "until the record expires"; -1 says so
    maximum_record_age_in_seconds: int = -1  # -1: records of any age are retried (the mapping's default)
    report_batch_item_failures: bool = False
    filters: tuple[Any, ...] = ()  # each Filter's Pattern, parsed


@dataclass(frozen=True)
class QueueEventSpec:
    """One ``SQS`` event of a function: the event source mapping on one of the template's queues."""

    name: str
    queue: str  # the logical id of the queue whose ``Arn`` the event reads
    batch_size: int = 10  # the mapping's default for a standard queue
    report_batch_item_failures: bool = False
    enabled: bool = True


@dataclass(frozen=True)
class FunctionSpec:
    """A ``AWS::Serverless::Function`` with its ``Globals`` applied."""

    logical_id: str
    handler: str
    code_uri: str
    runtime: str
    timeout: int
    memory_size: int
    environment: dict[str, Any] = field(default_factory=dict)
    schedules: tuple[ScheduleSpec, ...] = ()
    streams: tuple[StreamSpec, ...] = ()
    queues: tuple[QueueEventSpec, ...] = ()


def _queue_spec(name: str, props: Mapping[str, Any], params: Mapping[str, str]) -> QueueEventSpec | None:
    """The mapping of an ``SQS`` event whose ``Queue`` is ``!GetAtt <Queue>.Arn`` (a queue of the stack)."""
    queue = props.get("Queue")
    if not (isinstance(queue, dict) and set(queue) == {"Fn::GetAtt"}):
        return None
    logical_id, attribute = (str(part) for part in queue["Fn::GetAtt"])
    if attribute != "Arn":
        return None
    enabled = resolve_refs(props.get("Enabled", True), params)
    return QueueEventSpec(
        name=name,
        queue=logical_id,
        batch_size=int(resolve_refs(props.get("BatchSize", 10), params)),
        report_batch_item_failures="ReportBatchItemFailures" in (props.get("FunctionResponseTypes") or []),
        enabled=str(enabled).lower() != "false",
    )


def _stream_spec(name: str, props: Mapping[str, Any], params: Mapping[str, str]) -> StreamSpec | None:
    """The mapping of a ``DynamoDB`` event whose ``Stream`` is ``!GetAtt <Table>.StreamArn``."""
    stream = props.get("Stream")
    if not (isinstance(stream, dict) and set(stream) == {"Fn::GetAtt"}):
        return None
    table, attribute = (str(part) for part in stream["Fn::GetAtt"])
    if attribute not in ("StreamArn", "LatestStreamArn"):
        return None
    filters = (props.get("FilterCriteria") or {}).get("Filters") or []
    return StreamSpec(
        name=name,
        table=table,
        starting_position=str(resolve_refs(props.get("StartingPosition", "LATEST"), params)),
        batch_size=int(resolve_refs(props.get("BatchSize", 100), params)),
        maximum_retry_attempts=int(resolve_refs(props.get("MaximumRetryAttempts", 10_000), params)),
        maximum_record_age_in_seconds=int(resolve_refs(props.get("MaximumRecordAgeInSeconds", -1), params)),
        report_batch_item_failures="ReportBatchItemFailures" in (props.get("FunctionResponseTypes") or []),
        filters=tuple(json.loads(f["Pattern"]) for f in filters if isinstance(f.get("Pattern"), str)),
    )


def _resources(template: Mapping[str, Any], kind: str) -> dict[str, dict[str, Any]]:
    return {
        logical_id: resource
        for logical_id, resource in (template.get("Resources") or {}).items()
        if isinstance(resource, dict) and resource.get("Type") == kind
    }


def api_routes(template: Mapping[str, Any]) -> list[Route]:
    """Every ``(method, path)`` the template's functions declare as ``Api`` events, in template order."""
    routes = []
    for logical_id, resource in _resources(template, "AWS::Serverless::Function").items():
        events = (resource.get("Properties") or {}).get("Events") or {}
        for event_name, event in events.items():
            if event.get("Type") != "Api":
                continue
            props = event.get("Properties") or {}
            routes.append(Route(str(props["Method"]).upper(), str(props["Path"]), logical_id, event_name))
    return routes


def functions(
    template: Mapping[str, Any], parameters: Mapping[str, str] | None = None
) -> dict[str, FunctionSpec]:
    """Every serverless function with ``Globals.Function`` merged in, schedules resolved to strings."""
    params = parameter_values(template, parameters)
    globals_fn: dict[str, Any] = dict((template.get("Globals") or {}).get("Function") or {})
    specs = {}
    for logical_id, resource in _resources(template, "AWS::Serverless::Function").items():
        props: dict[str, Any] = {**globals_fn, **(resource.get("Properties") or {})}
        environment = {
            **((globals_fn.get("Environment") or {}).get("Variables") or {}),
            **(((resource.get("Properties") or {}).get("Environment") or {}).get("Variables") or {}),
        }
        schedules = []
        streams = []
        queues = []
        for event_name, event in (props.get("Events") or {}).items():
            if event.get("Type") == "SQS":
                queue = _queue_spec(event_name, event.get("Properties") or {}, params)
                if queue is not None:
                    queues.append(queue)
                continue
            if event.get("Type") == "DynamoDB":
                stream = _stream_spec(event_name, event.get("Properties") or {}, params)
                if stream is not None:
                    streams.append(stream)
                continue
            if event.get("Type") not in ("Schedule", "ScheduleV2"):
                continue
            event_props = event.get("Properties") or {}
            expression = resolve_refs(
                event_props.get("Schedule") or event_props.get("ScheduleExpression"), params
            )
            enabled = resolve_refs(event_props.get("Enabled", True), params)
            schedules.append(ScheduleSpec(event_name, str(expression), str(enabled).lower() != "false"))
        specs[logical_id] = FunctionSpec(
            logical_id=logical_id,
            handler=str(props["Handler"]),
            code_uri=str(props.get("CodeUri", ".")),
            runtime=str(props.get("Runtime", "")),
            timeout=int(props.get("Timeout", 3)),
            memory_size=int(props.get("MemorySize", 128)),
            environment=environment,
            schedules=tuple(schedules),
            streams=tuple(streams),
            queues=tuple(queues),
        )
    return specs


def api_cors_headers(template: Mapping[str, Any]) -> dict[str, str]:
    """The preflight headers API Gateway answers ``OPTIONS`` with, from the ``Api``'s ``Cors``."""
    headers: dict[str, str] = {}
    for resource in _resources(template, "AWS::Serverless::Api").values():
        cors = (resource.get("Properties") or {}).get("Cors")
        if isinstance(cors, str):
            cors = {"AllowOrigin": cors}
        if not isinstance(cors, dict):
            continue
        for key, header in (
            ("AllowOrigin", "Access-Control-Allow-Origin"),
            ("AllowMethods", "Access-Control-Allow-Methods"),
            ("AllowHeaders", "Access-Control-Allow-Headers"),
            ("MaxAge", "Access-Control-Max-Age"),
        ):
            if isinstance(cors.get(key), str):
                headers[header] = cors[key].strip("'")
        if cors.get("AllowCredentials") is True:
            headers["Access-Control-Allow-Credentials"] = "true"
    return headers


_RATE = re.compile(r"^rate\(\s*(\d+)\s+(second|seconds|minute|minutes|hour|hours|day|days)\s*\)$")
_UNIT_SECONDS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}


def parse_rate(expression: str) -> float:
    """Seconds between runs of an EventBridge ``rate(...)`` expression; ``cron(...)`` is not supported."""
    match = _RATE.match(expression.strip())
    if not match:
        raise ValueError(f"unsupported schedule expression {expression!r} (only rate(N unit) is)")
    amount, unit = int(match.group(1)), match.group(2).rstrip("s")
    if amount <= 0:
        raise ValueError(f"a rate must be positive: {expression!r}")
    return float(amount * _UNIT_SECONDS[unit])


def stack_refs(
    template: Mapping[str, Any],
    resources: Mapping[str, str],
    *,
    parameters: Mapping[str, str] | None = None,
    region: str = "us-east-1",
    account_id: str = "123456789012",
    stack_name: str = "dixit-local",
) -> dict[str, Any]:
    """What ``Ref`` gives in the local twin (parameters, pseudo parameters and the created resources), and
    what ``!GetAtt`` gives for those resources (``resource_attributes``)."""
    return {
        "AWS::Region": region,
        "AWS::AccountId": account_id,
        "AWS::Partition": "aws",
        "AWS::URLSuffix": "amazonaws.com",
        "AWS::StackName": stack_name,
        **parameter_values(template, parameters),
        **resources,
        **resource_attributes(template, resources, region=region, account_id=account_id),
    }


def resource_attributes(
    template: Mapping[str, Any], resources: Mapping[str, str], *, region: str, account_id: str
) -> dict[str, str]:
    """``"Logical.Attr"`` for the created resources: a queue's ``Arn``, ``QueueName`` and ``QueueUrl``, a
    topic's ``TopicName`` and ``TopicArn``, a table's and a bucket's ``Arn``, so a function's environment
    may name them by ``!GetAtt`` as well as by ``!Ref``."""
    declared = template.get("Resources") or {}
    found: dict[str, str] = {}
    for logical_id, value in resources.items():
        kind = (declared.get(logical_id) or {}).get("Type")
        if kind == "AWS::SQS::Queue":
            name = value.rsplit("/", 1)[-1]
            found[f"{logical_id}.Arn"] = f"arn:aws:sqs:{region}:{account_id}:{name}"
            found[f"{logical_id}.QueueName"] = name
            found[f"{logical_id}.QueueUrl"] = value
        elif kind == "AWS::SNS::Topic":
            found[f"{logical_id}.TopicArn"] = value
            found[f"{logical_id}.TopicName"] = value.rsplit(":", 1)[-1]
        elif kind == "AWS::DynamoDB::Table":
            found[f"{logical_id}.Arn"] = f"arn:aws:dynamodb:{region}:{account_id}:table/{value}"
        elif kind == "AWS::S3::Bucket":
            found[f"{logical_id}.Arn"] = f"arn:aws:s3:::{value}"
    return found


def resolved_environment(spec: FunctionSpec, refs: Mapping[str, Any]) -> tuple[dict[str, str], list[str]]:
    """A function's environment variables with ``refs`` applied, and the names left unresolved."""
    values: dict[str, str] = {}
    unresolved: list[str] = []
    for name, raw in spec.environment.items():
        value = resolve_refs(raw, refs)
        if isinstance(value, str | int | float | bool):
            values[name] = str(value).lower() if isinstance(value, bool) else str(value)
        else:
            unresolved.append(name)
    return values, unresolved
