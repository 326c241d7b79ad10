"""The framework as the API uses it, for the cold-import reference (bench/measure.py `cold`).

Powertools' REST resolver with validation and one pydantic-body route, plus Logger, Tracer, Metrics
and boto3: what any Powertools API function imports before a line of its own. The API's import is
compared with this one (issue 23); the bare `import aws_lambda_powertools.event_handler, pydantic,
boto3` is measured too, for what the framework's own objects add.
"""

from __future__ import annotations

from typing import Any

import boto3
from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.event_handler import APIGatewayRestResolver
from pydantic import BaseModel

logger = Logger()
tracer = Tracer()
metrics = Metrics(namespace="Reference")
app = APIGatewayRestResolver(enable_validation=True)


class Thing(BaseModel):
    name: str


@app.post("/things")
def create(body: Thing) -> dict[str, str]:
    return {"name": body.name}


def dynamodb() -> Any:
    """The client a first request would build."""
    return boto3.client("dynamodb")
