"""The framework as the API function configures it, for the cold-import reference (bench/measure.py `cold`).

What any Powertools API function configured like ours imports and builds before a line of its own:
Powertools' REST resolver with validation, CORS and the app's response-validation code, and one
pydantic-body route; Logger and Metrics (EMF) with the app's service and namespace; a Tracer that patches
botocore only; and the SDK entry point the app uses, a botocore session (boto3 is never imported). Every
setting comes from like_the_app.py, which tests/bench/test_references.py holds to the app's. The app's
import is compared with this one (issue 36); the bare `import aws_lambda_powertools.event_handler,
pydantic, botocore.session` is measured too, for what the framework's own objects add.
"""

from __future__ import annotations

import logging
from typing import Any

import botocore.session
from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.event_handler import APIGatewayRestResolver, CORSConfig
from aws_lambda_powertools.metrics.provider.cloudwatch_emf.cloudwatch import AmazonCloudWatchEMFProvider
from like_the_app import CLIENT_CONFIG, CORS, NAMESPACE, QUIET_LIBRARIES, RESOLVER, SERVICE, TRACED_MODULES
from pydantic import BaseModel

for _name in QUIET_LIBRARIES:
    logging.getLogger(_name).setLevel(logging.WARNING)
logger = Logger(service=SERVICE)
metrics = Metrics(namespace=NAMESPACE, provider=AmazonCloudWatchEMFProvider(namespace=NAMESPACE))
tracer = Tracer(patch_modules=TRACED_MODULES)
app = APIGatewayRestResolver(**RESOLVER, cors=CORSConfig(**CORS))


class Thing(BaseModel):
    name: str


@app.post("/things")
def create(body: Thing) -> dict[str, str]:
    return {"name": body.name}


def dynamodb() -> Any:
    """The client a first request would build, as the app builds it."""
    return botocore.session.get_session().create_client("dynamodb", config=CLIENT_CONFIG)
