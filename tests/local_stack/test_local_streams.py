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
    # Retried until the record is an hour old (an SQS outage of any length up to that loses nothing),
    # then sent to the failure queue, whose alarm fires.
    assert stream.maximum_retry_attempts == -1
    assert stream.maximum_record_age_in_seconds == 3600


def test_the_game_stream_gives_up_only_on_records_an_hour_old_into_an_alarmed_queue() -> None:
    resources = load_template()["Resources"]
    props = resources["GameStreamFunction"]["Properties"]["Events"]["GameChanges"]["Properties"]
    assert props["MaximumRetryAttempts"] == -1
    assert props["MaximumRecordAgeInSeconds"] == 3600
    assert props["BisectBatchOnFunctionError"] is True
    assert props["DestinationConfig"]["OnFailure"]["Destination"] == {
        "Fn::GetAtt": ["NotifyFailureQueue", "Arn"]
    }
    alarmed = resources["NotifyFailureAlarm"]["Properties"]["Dimensions"][0]["Value"]
    assert alarmed == {"Fn::GetAtt": ["NotifyFailureQueue", "QueueName"]}


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


CREATED = datetime(2026, 11, 30, 10, 0, tzinfo=UTC).timestamp()


class Clocked(StreamFeeder):
    """A feeder whose waits move a fake clock (starting ``age`` seconds after the records were made)."""

    def __init__(self, *args: Any, age: float = 0.0, **kwargs: Any) -> None:
        self.now = CREATED + age
        self.waits: list[float] = []
        super().__init__(*args, clock=lambda: self.now, **kwargs)

    def wait(self, seconds: float) -> bool:
        self.waits.append(seconds)
        self.now += seconds
        return super().wait(0)


def feeder(
    handler: Handler,
    retries: int,
    said: list[str],
    *,
    max_age: int = -1,
    age: float = 0.0,
    retry_wait_seconds: float = 0,
) -> tuple[Clocked, StreamMapping]:
    spec = FunctionSpec(
        "GameStreamFunction", "handlers.game_stream.lambda_handler", "src/", "python3.13", 30, 512
    )
    stream = StreamSpec(
        "GameChanges",
        "GameTable",
        maximum_retry_attempts=retries,
        maximum_record_age_in_seconds=max_age,
        report_batch_item_failures=True,
    )
    mapping = StreamMapping(spec, stream, "t", lambda: handler)
    return Clocked(
        [mapping],
        dynamodb_client=None,
        streams_client=None,
        retry_wait_seconds=retry_wait_seconds,
        report=said.append,
        age=age,
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


def test_the_template_reads_the_record_age_limit() -> None:
    template = {
        "Resources": {
            "Fn": {
                "Type": "AWS::Serverless::Function",
                "Properties": {
                    "Handler": "h.handler",
                    "CodeUri": "src/",
                    "Runtime": "python3.13",
                    "Events": {
                        "Changes": {
                            "Type": "DynamoDB",
                            "Properties": {
                                "Stream": {"Fn::GetAtt": ["Table", "StreamArn"]},
                                "MaximumRetryAttempts": -1,
                                "MaximumRecordAgeInSeconds": 60,
                            },
                        }
                    },
                },
            }
        }
    }
    (stream,) = functions(template)["Fn"].streams
    assert (stream.maximum_retry_attempts, stream.maximum_record_age_in_seconds) == (-1, 60)


def test_under_unbounded_retries_a_batch_outlasting_five_retries_is_delivered() -> None:
    # An outage of eight attempts (more than the five retries the mapping once had), then success.
    handler, said = Handler(["2"], times=8), list[str]()
    stack, mapping = feeder(handler, -1, said, max_age=3600, retry_wait_seconds=0.2)
    assert stack.deliver(mapping, [lambda_record(record(n), "arn") for n in (1, 2, 3)])
    assert len(handler.batches) == 9
    assert handler.batches[-1] == ["2", "3"]
    assert said == []
    # The waits double from the base, capped (locally) at five seconds.
    assert stack.waits == [0.2, 0.4, 0.8, 1.6, 3.2, 5.0, 5.0, 5.0]


def test_under_unbounded_retries_a_batch_is_given_up_once_its_oldest_record_is_too_old() -> None:
    handler, said = Handler(["1"], times=10_000), list[str]()
    stack, mapping = feeder(handler, -1, said, max_age=60, retry_wait_seconds=1)
    assert not stack.deliver(mapping, [lambda_record(record(n), "arn") for n in (1, 2)])
    # Retried while the records were at most 60 s old (waits 1, 2, 4, 5, 5, ... s), then given up.
    assert sum(stack.waits[:-1]) <= 60 < sum(stack.waits)
    assert len(handler.batches) == len(stack.waits) + 1
    assert len(said) == 1
    assert "gave up on records 1..2" in said[0]
    assert "older than 60 s" in said[0]


def test_records_older_than_the_age_limit_are_given_up_on_their_first_failure() -> None:
    handler, said = Handler(["1"], times=10_000), list[str]()
    stack, mapping = feeder(handler, 5, said, max_age=3600, age=7200)
    assert not stack.deliver(mapping, [lambda_record(record(n), "arn") for n in (1, 2)])
    assert handler.batches == [["1", "2"]]
    assert stack.waits == []
    assert "older than 3600 s" in said[0]


def test_a_stopping_feeder_stops_retrying_without_giving_the_batch_up() -> None:
    handler, said = Handler(["1"], times=10_000), list[str]()
    stack, mapping = feeder(handler, -1, said, max_age=3600)
    stack.stop()
    assert not stack.deliver(mapping, [lambda_record(record(1), "arn")])
    assert len(handler.batches) == 1
    assert said == []
