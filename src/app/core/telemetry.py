"""Powertools logger and metrics, shared by the handlers and use cases of one function."""

from __future__ import annotations

import json
import logging
import os
import sys
from collections import defaultdict
from datetime import datetime
from functools import lru_cache
from typing import Any

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.metrics.functions import is_metrics_disabled
from aws_lambda_powertools.metrics.provider.cloudwatch_emf.cloudwatch import AmazonCloudWatchEMFProvider
from aws_lambda_powertools.metrics.provider.cloudwatch_emf.constants import MAX_METRICS
from aws_lambda_powertools.shared.constants import METRICS_DISABLED_ENV, POWERTOOLS_DEV_ENV

# At DEBUG the AWS SDK logs whole request and response bodies: token hashes, hands, the seed. Whatever
# level the function logs at, these stay at WARNING.
QUIET_LIBRARIES = ("boto3", "botocore", "s3transfer", "urllib3")
for _name in QUIET_LIBRARIES:
    logging.getLogger(_name).setLevel(logging.WARNING)

logger = Logger(service=os.environ.get("POWERTOOLS_SERVICE_NAME", "dixit"))


class _QuietEMFProvider(AmazonCloudWatchEMFProvider):
    """Powertools' EMF provider, writing the line it writes, with less work per invocation.

    Most API requests (views, polls) add no metric, and the stock flush warns on each of them; with
    stdout unbuffered, as Lambda's is, its print was two writes: here one write, and no warning. A move
    counts one metric and flushes it: the stock path validated the unit and resolution on each count
    and rebuilt the dimension set on each flush, about a seventieth of a move's CPU (issue 36). Counts
    go straight into the metric set in the stock shape, and the common line (no high resolution, no
    extra dimension sets) is written here; anything else is the stock serializer's.
    tests/app/core/test_metric_lines.py holds the two to the same lines.
    """

    def count(self, name: str, value: int) -> None:
        """add_metric(name, Count, value) for a name of this code's own (valid by construction)."""
        metric = self.metric_set.get(name)
        if metric is None and len(self.metric_set) < MAX_METRICS - 1:
            metric = self.metric_set[name] = defaultdict(list)
        if metric is None or len(metric["Value"]) >= MAX_METRICS - 1:
            # The stock path: it flushes a set that reaches the limit.
            self.add_metric(name=name, unit=MetricUnit.Count, value=value)
            return
        # What add_metric does once it has validated its arguments (a count's unit and resolution).
        metric["Unit"], metric["StorageResolution"] = "Count", 60
        metric["Value"].append(float(value))

    def flush_metrics(self, raise_on_empty_metrics: bool = False) -> None:
        if not self.metric_set:
            if raise_on_empty_metrics:
                super().flush_metrics(raise_on_empty_metrics=True)
            return
        if not _metrics_disabled():
            sys.stdout.write(json.dumps(self.serialize_metric_set(), separators=(",", ":")) + "\n")
            self.clear_metrics()

    def serialize_metric_set(
        self,
        metrics: dict[str, Any] | None = None,
        dimensions: dict[str, Any] | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> Any:
        common = (
            metrics is None
            and dimensions is None
            and metadata is None
            and self.metric_set
            and self.namespace is not None
            and not self.dimension_sets
            and all(metric.get("StorageResolution", 60) != 1 for metric in self.metric_set.values())
        )
        if not common:
            return super().serialize_metric_set(metrics, dimensions, metadata)
        if self.service and not self.dimension_set.get("service"):
            self.add_dimension(name="service", value=self.service)
        metric_set, dimension_set = self.metric_set, self.dimension_set
        return {
            "_aws": {
                "Timestamp": self.timestamp or int(datetime.now().timestamp() * 1000),
                "CloudWatchMetrics": [
                    {
                        "Namespace": self.namespace,
                        "Dimensions": [list(dimension_set)],
                        "Metrics": [
                            {"Name": name, "Unit": m.get("Unit", "")} for name, m in metric_set.items()
                        ],
                    }
                ],
            },
            **dimension_set,
            **self.metadata_set,
            **{name: m.get("Value", 0) for name, m in metric_set.items()},
        }

    def clear_metrics(self) -> None:
        if self.default_dimensions:
            super().clear_metrics()  # it adds them back one by one, as it validates them
            return
        self.metric_set.clear()
        self.dimension_set.clear()
        self.dimension_sets.clear()
        self.metadata_set.clear()


@lru_cache(maxsize=8)
def _disabled_when(dev: str | None, disabled: str | None) -> bool:
    return is_metrics_disabled()  # reads the same two variables: the key is what it decides from


def _metrics_disabled() -> bool:
    """is_metrics_disabled(), as the environment says at each flush, worked out once per value."""
    return _disabled_when(os.environ.get(POWERTOOLS_DEV_ENV), os.environ.get(METRICS_DISABLED_ENV))


_NAMESPACE = os.environ.get("POWERTOOLS_METRICS_NAMESPACE", "DixitByMail")
_provider = _QuietEMFProvider(namespace=_NAMESPACE)
metrics = Metrics(namespace=_NAMESPACE, provider=_provider)


def count(name: str, value: int = 1) -> None:
    _provider.count(name, value)
