"""The local stack's stream feeder: the event source mapping's filter, event shape and retries."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from local_stack.streams import StreamFeeder, StreamMapping, lambda_record, wanted
from local_stack.template import FunctionSpec, StreamSpec, apply_language_extensions, functions, load_template

GAME_ONLY = {"dynamodb": {"Keys": {"sk": {"S": ["STATE"]}}}}


def record(sequence: int, sk: str = "STATE") -> dict[str, Any]:
    return {
        "eventName": "MODIFY",
        "dynamodb": {
            "Keys": {"pk": {"S": "GAME#g_1"}, "sk": {"S": sk}},
            "SequenceNumber": str(sequence),
            "ApproximateCreationDateTime": datetime(2026, 11, 30, 10, 0, tzinfo=UTC),
        },
    }


def test_the_template_maps_the_game_table_stream_to_notify_with_its_filter_and_retries() -> None:
    (stream,) = functions(apply_language_extensions(load_template()))["GameStreamFunction"].streams
    assert stream.table == "GameTable"
    assert stream.filters == (GAME_ONLY,)
    assert stream.report_batch_item_failures
    assert stream.maximum_retry_attempts == 5


def test_only_game_items_pass_the_filter() -> None:
    assert wanted(lambda_record(record(1), "arn:stream"), [GAME_ONLY])
    assert not wanted(lambda_record(record(2, sk="MEMBER#p_1"), "arn:stream"), [GAME_ONLY])
    assert wanted(lambda_record(record(2, sk="MEMBER#p_1"), "arn:stream"), [])


def test_records_carry_the_source_arn_and_an_epoch_second_creation_time() -> None:
    shaped = lambda_record(record(7), "arn:aws:dynamodb:us-east-1:123456789012:table/t/stream/x")
    assert shaped["eventSourceARN"].endswith("/stream/x")
    assert shaped["dynamodb"]["ApproximateCreationDateTime"] == 1796032800


class Handler:
    """Fails the given sequence numbers the first `times` calls, and records every batch it sees."""

    def __init__(self, failing: list[str], times: int) -> None:
        self.failing, self.times = failing, times
        self.batches: list[list[str]] = []

    def __call__(self, event: dict[str, Any], context: Any) -> dict[str, Any]:
        self.batches.append([r["dynamodb"]["SequenceNumber"] for r in event["Records"]])
        if len(self.batches) > self.times:
            return {"batchItemFailures": []}
        return {"batchItemFailures": [{"itemIdentifier": s} for s in self.failing]}


def feeder(handler: Handler, retries: int, said: list[str]) -> tuple[StreamFeeder, StreamMapping]:
    spec = FunctionSpec(
        "GameStreamFunction", "handlers.game_stream.lambda_handler", "src/", "python3.13", 30, 512
    )
    stream = StreamSpec(
        "GameChanges", "GameTable", maximum_retry_attempts=retries, report_batch_item_failures=True
    )
    mapping = StreamMapping(spec, stream, "t", lambda: handler)
    return StreamFeeder(
        [mapping], dynamodb_client=None, streams_client=None, retry_wait_seconds=0, report=said.append
    ), mapping


def test_a_partial_failure_is_retried_from_the_lowest_failed_record() -> None:
    handler, said = Handler(["3", "2"], times=1), list[str]()
    stack, mapping = feeder(handler, 5, said)
    batch = [lambda_record(record(n), "arn") for n in (1, 2, 3, 4)]
    assert stack.deliver(mapping, batch)
    assert handler.batches == [["1", "2", "3", "4"], ["2", "3", "4"]]
    assert said == []


def test_a_batch_that_keeps_failing_is_given_up_after_the_retries() -> None:
    handler, said = Handler(["2"], times=100), list[str]()
    stack, mapping = feeder(handler, 2, said)
    assert not stack.deliver(mapping, [lambda_record(record(n), "arn") for n in (1, 2)])
    assert len(handler.batches) == 3
    assert "gave up on records 2..2 after 2 retries" in said[0]
