"""The API in this process: moto as AWS, tables built from template.yaml, requests as API Gateway events.

Only stable entry points of the tree under test are used (`handlers.api.lambda_handler`, template.yaml),
so the same code measures a baseline checkout and the work tree.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from dixit_bots.api import Reply

TABLE = "dixit-bench"
BUCKET = "dixit-bench-cards"
ENVIRONMENT = {
    "AWS_ACCESS_KEY_ID": "bench",
    "AWS_SECRET_ACCESS_KEY": "bench",
    "AWS_DEFAULT_REGION": "us-east-1",
    "TABLE_NAME": TABLE,
    "CARD_BUCKET": BUCKET,
    "POWERTOOLS_TRACE_DISABLED": "true",
    "POWERTOOLS_METRICS_NAMESPACE": "DixitBench",
    "POWERTOOLS_LOG_LEVEL": "WARNING",
}
# Path segments that API Gateway turns into path parameters, by the segment before them.
PATH_PARAMETERS = {"games": "game_id", "decks": "deck_id"}


class _AnyTag(dict):  # type: ignore[type-arg]
    """A CloudFormation intrinsic (!Ref, !Sub, …): kept as an opaque value, never needed here."""


def game_table_properties(tree: Path) -> dict[str, Any]:
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("!", lambda loader, suffix, node: _AnyTag())
    template = yaml.load((tree / "template.yaml").read_text(), Loader=Loader)  # noqa: S506
    properties: dict[str, Any] = template["Resources"]["GameTable"]["Properties"]
    return properties


def create_resources(tree: Path) -> dict[str, Any]:
    """The game table with the template's keys and indexes, and the card bucket; returns the properties."""
    import boto3

    properties = game_table_properties(tree)
    table: dict[str, Any] = {
        "TableName": TABLE,
        "AttributeDefinitions": properties["AttributeDefinitions"],
        "KeySchema": properties["KeySchema"],
        "BillingMode": "PAY_PER_REQUEST",
    }
    if properties.get("GlobalSecondaryIndexes"):
        table["GlobalSecondaryIndexes"] = properties["GlobalSecondaryIndexes"]
    boto3.client("dynamodb").create_table(**table)
    boto3.client("s3").create_bucket(Bucket=BUCKET)
    return properties


@contextmanager
def moto_api(tree: Path) -> Iterator[dict[str, Any]]:
    """Environment, moto and resources for `handlers.api` of `tree`; yields the table properties."""
    from moto import mock_aws

    os.environ.update(ENVIRONMENT)
    os.environ.pop("AWS_ENDPOINT_URL", None)
    with mock_aws():
        yield create_resources(tree)


# CPU seconds moto spends answering boto3 calls: the twin's work, not the handler's.
MOTO_CPU = [0.0]


def exclude_moto_cpu() -> None:
    from moto.core.botocore_stubber import BotocoreStubber

    answer = BotocoreStubber.__call__

    def timed(self: Any, *args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return answer(self, *args, **kwargs)
        finally:
            MOTO_CPU[0] += time.process_time() - started

    BotocoreStubber.__call__ = timed  # type: ignore[method-assign]


class FakeContext:
    function_name = "ApiFunction"
    memory_limit_in_mb = 512
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:ApiFunction"
    aws_request_id = "req-bench"

    def get_remaining_time_in_millis(self) -> int:
        return 30_000


def resource_of(path: str) -> tuple[str, dict[str, str]]:
    parts = path.split("?", 1)[0].strip("/").split("/")
    resource, params = [], {}
    for i, part in enumerate(parts):
        if i == 1 and parts[0] in PATH_PARAMETERS:
            resource.append("{" + PATH_PARAMETERS[parts[0]] + "}")
            params[PATH_PARAMETERS[parts[0]]] = part
        else:
            resource.append(part)
    return "/" + "/".join(resource), params


def event(method: str, path: str, body: Any, headers: dict[str, str]) -> dict[str, Any]:
    """An API Gateway REST proxy event, as API Gateway sends it."""
    resource, params = resource_of(path)
    all_headers = {"Content-Type": "application/json", **headers}
    return {
        "resource": resource,
        "path": path,
        "httpMethod": method,
        "headers": all_headers,
        "multiValueHeaders": {k: [v] for k, v in all_headers.items()},
        "queryStringParameters": None,
        "multiValueQueryStringParameters": None,
        "pathParameters": params or None,
        "stageVariables": None,
        "requestContext": {
            "resourcePath": resource,
            "httpMethod": method,
            "path": f"/bench{path}",
            "stage": "bench",
            "requestId": str(uuid.uuid4()),
            "identity": {"sourceIp": "127.0.0.1"},
        },
        "body": None if body is None else json.dumps(body),
        "isBase64Encoded": False,
    }


ROUTE_KINDS = {
    ("POST", "/players"): "register",
    ("POST", "/games"): "create",
    ("POST", "/games/{game_id}/join"): "join",
    ("POST", "/games/{game_id}/start"): "start",
    ("POST", "/games/{game_id}/clue"): "clue",
    ("POST", "/games/{game_id}/submissions"): "submit",
    ("POST", "/games/{game_id}/votes"): "vote",
    ("GET", "/games/{game_id}"): "view",
}


def kind_of(method: str, path: str, status: int) -> str:
    kind = ROUTE_KINDS.get((method, resource_of(path)[0]), f"{method} {resource_of(path)[0]}")
    return "poll 304" if status == 304 else kind


# Told (kind, handler CPU seconds without moto's share) after every request.
CpuObserver = Callable[[str, float], None]


class LambdaTransport:
    """Sends requests straight to a Lambda handler function, as API Gateway's proxy integration would."""

    def __init__(
        self,
        handler: Callable[[dict[str, Any], Any], dict[str, Any]],
        *,
        observe: CpuObserver | None = None,
        before: Callable[[str, str], None] | None = None,
        extra_cpu: float = 0.0,
    ) -> None:
        self.handler = handler
        self.observe = observe
        self.before = before
        self.extra_cpu = extra_cpu

    def __call__(self, method: str, path: str, body: Any, headers: dict[str, str]) -> Reply:
        if self.before is not None:
            self.before(method, path)
        request = event(method, path, body, headers)
        moto_before, started = MOTO_CPU[0], time.process_time()
        result = self.handler(request, FakeContext())
        spent = time.process_time() - started - (MOTO_CPU[0] - moto_before)
        if self.extra_cpu:
            spent += burn(spent * self.extra_cpu)
        names = dict(result.get("headers") or {})
        for name, values in (result.get("multiValueHeaders") or {}).items():
            names.setdefault(name, values[0])
        raw = result.get("body") or ""
        lowered = {name.lower(): value for name, value in names.items()}
        reply = Reply(result["statusCode"], lowered, json.loads(raw) if raw else None)
        if self.observe is not None:
            self.observe(kind_of(method, path, reply.status), spent)
        return reply


def burn(seconds: float) -> float:
    """Spend this much CPU (the self-check's injected slowdown); returns the CPU actually spent."""
    started = time.process_time()
    while time.process_time() - started < seconds:
        # Ordinary interpreter work between clock reads, as a real regression would add.
        sum(i * i % 7 for i in range(200))
    return time.process_time() - started
