"""Powertools logger and metrics, shared by the handlers and use cases of one function."""

from __future__ import annotations

import json
import logging
import os
import sys

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.metrics.functions import is_metrics_disabled
from aws_lambda_powertools.metrics.provider.cloudwatch_emf.cloudwatch import AmazonCloudWatchEMFProvider

# At DEBUG the AWS SDK logs whole request and response bodies: token hashes, hands, the seed. Whatever
# level the function logs at, these stay at WARNING.
QUIET_LIBRARIES = ("boto3", "botocore", "s3transfer", "urllib3")
for _name in QUIET_LIBRARIES:
    logging.getLogger(_name).setLevel(logging.WARNING)

logger = Logger(service=os.environ.get("POWERTOOLS_SERVICE_NAME", "dixit"))


class _QuietEMFProvider(AmazonCloudWatchEMFProvider):
    """Powertools' EMF provider, flushing as it does but with one write per invocation and no warning.

    Most API requests (views, polls) add no metric, and the stock flush warns on each of them; with
    stdout unbuffered, as Lambda's is, its print was two writes. Same EMF line, same dashboards.
    """

    def flush_metrics(self, raise_on_empty_metrics: bool = False) -> None:
        if not self.metric_set:
            if raise_on_empty_metrics:
                super().flush_metrics(raise_on_empty_metrics=True)
            return
        if not is_metrics_disabled():
            sys.stdout.write(json.dumps(self.serialize_metric_set(), separators=(",", ":")) + "\n")
            self.clear_metrics()


_NAMESPACE = os.environ.get("POWERTOOLS_METRICS_NAMESPACE", "DixitByMail")
metrics = Metrics(namespace=_NAMESPACE, provider=_QuietEMFProvider(namespace=_NAMESPACE))


def count(name: str, value: int = 1) -> None:
    metrics.add_metric(name=name, unit=MetricUnit.Count, value=value)
