"""Powertools logger and metrics, shared by the handlers and use cases of one function."""

from __future__ import annotations

import logging
import os

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit

# At DEBUG the AWS SDK logs whole request and response bodies: token hashes, hands, the seed. Whatever
# level the function logs at, these stay at WARNING.
QUIET_LIBRARIES = ("boto3", "botocore", "s3transfer", "urllib3")
for _name in QUIET_LIBRARIES:
    logging.getLogger(_name).setLevel(logging.WARNING)

logger = Logger(service=os.environ.get("POWERTOOLS_SERVICE_NAME", "dixit"))
metrics = Metrics(namespace=os.environ.get("POWERTOOLS_METRICS_NAMESPACE", "DixitByMail"))


def count(name: str, value: int = 1) -> None:
    metrics.add_metric(name=name, unit=MetricUnit.Count, value=value)
