"""What the functions' metrics write: Powertools' EMF line, once per invocation; nothing without a metric."""

from __future__ import annotations

import contextlib
import io
import json
import warnings

import pytest
from aws_lambda_powertools.metrics.functions import is_metrics_disabled
from aws_lambda_powertools.metrics.provider.cloudwatch_emf.cloudwatch import AmazonCloudWatchEMFProvider
from hypothesis import example, given, settings
from hypothesis import strategies as st

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


# --- the provider's own paths, against the stock provider ------------------------------------------------
NAMES = st.sampled_from(["MovesApplied", "GamesFinished", "Nudges"])
STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("count"), NAMES, st.integers(0, 3)),
        st.tuples(st.just("metric"), NAMES, st.sampled_from(["Count", "Seconds"]), st.sampled_from([60, 1])),
        st.tuples(
            st.just("dimension"), st.sampled_from(["channel", "rules"]), st.sampled_from(["mail", "push"])
        ),
        st.tuples(st.just("metadata"), st.sampled_from(["game_id", "kind"]), st.sampled_from(["g1", "x"])),
        st.tuples(st.just("dimension set"), st.sampled_from(["mail", "push"])),
        st.tuples(
            st.just("flush"),
        ),
    ),
    max_size=25,
)


def _apply(provider: AmazonCloudWatchEMFProvider, step: tuple[object, ...], ours: bool) -> None:
    kind = step[0]
    if kind == "count":
        name, value = str(step[1]), int(step[2])  # type: ignore[call-overload]
        if ours:
            provider.count(name, value)  # type: ignore[attr-defined]
        else:
            provider.add_metric(name=name, unit="Count", value=value)
    elif kind == "metric":
        provider.add_metric(name=str(step[1]), unit=str(step[2]), value=1, resolution=step[3])  # type: ignore[arg-type]
    elif kind == "dimension":
        provider.add_dimension(name=str(step[1]), value=str(step[2]))
    elif kind == "metadata":
        provider.add_metadata(key=str(step[1]), value=step[2])
    elif kind == "dimension set":
        provider.add_dimensions(channel=str(step[1]))
    else:
        provider.flush_metrics()


def _written(
    provider: AmazonCloudWatchEMFProvider, steps: list[tuple[object, ...]], ours: bool
) -> list[object]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for step in [*steps, ("flush",)]:
            _apply(provider, step, ours)
    state = (
        dict(provider.metric_set),
        dict(provider.dimension_set),
        provider.dimension_sets,
        provider.metadata_set,
    )
    return [*(_without_time(line) for line in _lines(out.getvalue())), state]


@settings(max_examples=300, deadline=None)
# A count after a high-resolution metric of the same name: the count sets the resolution back.
@example(
    steps=[("metric", "MovesApplied", "Count", 1), ("count", "MovesApplied", 0)], service=None, defaults={}
)
@given(
    steps=STEPS,
    service=st.sampled_from([None, "dixit"]),
    defaults=st.sampled_from([{}, {"stage": "prod"}]),
)
def test_the_provider_writes_what_the_stock_one_writes(
    steps: list[tuple[object, ...]], service: str | None, defaults: dict[str, str]
) -> None:
    # Timestamps apart, every line, and what is left after the last flush, are the stock provider's.
    ours = telemetry._QuietEMFProvider(namespace="Dixit", service=service)
    stock = AmazonCloudWatchEMFProvider(namespace="Dixit", service=service)
    for provider in (ours, stock):
        provider.set_default_dimensions(**defaults)
    assert _written(ours, steps, ours=True) == _written(stock, steps, ours=False)


def test_a_hundredth_count_flushes_the_set_as_the_stock_provider_does() -> None:
    steps: list[tuple[object, ...]] = [("count", "MovesApplied", 1)] * 150 + [("count", "Nudges", 2)] * 3
    ours = telemetry._QuietEMFProvider(namespace="Dixit")
    stock = AmazonCloudWatchEMFProvider(namespace="Dixit")
    written = _written(ours, steps, ours=True)
    assert written == _written(stock, steps, ours=False)
    assert len(written) == 3  # the line at a hundred values, the rest at the flush, and the state


@pytest.mark.parametrize(
    ("dev", "disabled"),
    [(None, None), ("true", None), ("true", "false"), (None, "true"), ("false", "1"), (None, "no")],
)
def test_metrics_are_disabled_exactly_when_powertools_says(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], dev: str | None, disabled: str | None
) -> None:
    for name, value in (("POWERTOOLS_DEV", dev), ("POWERTOOLS_METRICS_DISABLED", disabled)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    telemetry.count("MovesApplied")
    telemetry.metrics.flush_metrics()
    assert (capsys.readouterr().out == "") is is_metrics_disabled()
