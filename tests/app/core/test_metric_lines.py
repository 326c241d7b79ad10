"""What the functions' metrics write: Powertools' EMF line, once per invocation; nothing without a metric."""

from __future__ import annotations

import json
import warnings

import pytest
from aws_lambda_powertools.metrics.provider.cloudwatch_emf.cloudwatch import AmazonCloudWatchEMFProvider

from app.core import telemetry


@pytest.fixture(autouse=True)
def _no_earlier_metrics() -> None:
    # Use cases count without flushing when no handler wraps them: start from an empty set.
    telemetry.metrics.provider.clear_metrics()


def _lines(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def _without_time(line: dict[str, object]) -> dict[str, object]:
    aws = dict(line["_aws"])  # type: ignore[arg-type]
    aws.pop("Timestamp")
    return {**line, "_aws": aws}


def test_counts_are_flushed_as_the_emf_line_powertools_writes(capsys: pytest.CaptureFixture[str]) -> None:
    telemetry.count("MovesApplied")
    telemetry.count("MovesApplied")
    telemetry.count("GamesFinished")
    telemetry.metrics.flush_metrics()
    (ours,) = _lines(capsys.readouterr().out)
    stock = AmazonCloudWatchEMFProvider(namespace=telemetry.metrics.provider.namespace)
    stock.add_metric(name="MovesApplied", unit="Count", value=1)
    stock.add_metric(name="MovesApplied", unit="Count", value=1)
    stock.add_metric(name="GamesFinished", unit="Count", value=1)
    stock.flush_metrics()
    (theirs,) = _lines(capsys.readouterr().out)
    assert _without_time(ours) == _without_time(theirs)
    assert ours["MovesApplied"] == [1.0, 1.0]


def test_an_invocation_without_metrics_writes_nothing_and_warns_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        telemetry.metrics.flush_metrics()
    assert capsys.readouterr().out == ""


def test_a_flush_clears_what_it_wrote(capsys: pytest.CaptureFixture[str]) -> None:
    telemetry.count("MovesApplied")
    telemetry.metrics.flush_metrics()
    telemetry.metrics.flush_metrics()
    assert len(_lines(capsys.readouterr().out)) == 1
