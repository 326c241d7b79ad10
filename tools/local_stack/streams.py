"""Feed a table's DynamoDB stream to a function, as Lambda's event source mapping does.

A thread polls dynamodbstreams (the table's stream → its shards → shard iterators → records), drops
what the mapping's ``FilterCriteria`` would drop, hands the rest to the handler in Lambda's stream event,
and, with ``ReportBatchItemFailures``, retries from the lowest failed sequence number until its
``MaximumRetryAttempts`` run out (-1: never) or its oldest record is older than
``MaximumRecordAgeInSeconds``, then gives the batch up (where the deployed mapping would send it to its
failure destination).
"""

from __future__ import annotations

import base64
import json
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any, Self

from local_stack.poller import Loop, Poller
from local_stack.runtime import HandlerResolver, LambdaContext
from local_stack.template import FunctionSpec, StreamSpec

LOG = logging.getLogger("local_stack.streams")


def matches(pattern: Any, value: Any) -> bool:
    """EventBridge-style filter matching, for what templates use: nested keys, lists of exact values."""
    if isinstance(pattern, dict):
        return isinstance(value, dict) and all(
            key in value and matches(sub, value[key]) for key, sub in pattern.items()
        )
    if isinstance(pattern, list):
        return value in pattern
    return bool(pattern == value)


def wanted(record: Mapping[str, Any], patterns: Sequence[Any]) -> bool:
    """A record passes when there is no filter or any filter matches (filters are OR'ed)."""
    return not patterns or any(matches(pattern, record) for pattern in patterns)


def _json_default(value: Any) -> Any:
    if isinstance(value, bytes | bytearray):
        return base64.b64encode(value).decode("ascii")  # B and BS values arrive base64 in Lambda's event
    if isinstance(value, datetime):
        return int(value.timestamp())
    if isinstance(value, set):
        return sorted(value)
    raise TypeError(f"cannot put {type(value).__name__} in a stream event")


def lambda_record(record: Mapping[str, Any], stream_arn: str) -> dict[str, Any]:
    """One dynamodbstreams record as Lambda delivers it: epoch-second creation time, source ARN, JSON."""
    change = dict(record.get("dynamodb") or {})
    created = change.get("ApproximateCreationDateTime")
    if isinstance(created, datetime):
        change["ApproximateCreationDateTime"] = int(created.timestamp())
    shaped = {**record, "dynamodb": change, "eventSourceARN": stream_arn}
    plain: dict[str, Any] = json.loads(json.dumps(shaped, default=_json_default))
    return plain


def failed_sequence_numbers(result: Any) -> list[str]:
    """The ``itemIdentifier`` of each ``batchItemFailures`` entry (stream records: sequence numbers)."""
    if not isinstance(result, Mapping):
        return []
    failures = result.get("batchItemFailures") or []
    return [str(f["itemIdentifier"]) for f in failures if isinstance(f, Mapping) and f.get("itemIdentifier")]


@dataclass
class StreamMapping:
    function: FunctionSpec
    stream: StreamSpec
    table_name: str
    handler: HandlerResolver


class StreamFeeder(Poller):
    """One thread per mapping, each reading its table's stream from LATEST at start, like a new mapping."""

    def __init__(
        self,
        mappings: list[StreamMapping],
        *,
        dynamodb_client: Any,
        streams_client: Any,
        region: str = "us-east-1",
        poll_seconds: float = 0.25,
        retry_wait_seconds: float = 0.2,
        report: Callable[[str], None] | None = None,
        max_retry_wait_seconds: float = 5.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(LOG)
        self.mappings = mappings
        self.dynamodb = dynamodb_client
        self.streams = streams_client
        self.region = region
        self.poll_seconds = poll_seconds
        self.retry_wait_seconds = retry_wait_seconds
        self.report = report or LOG.info
        self.max_retry_wait_seconds = max_retry_wait_seconds
        # Wall-clock epoch seconds, as records' ApproximateCreationDateTime (not the stack's moved clock).
        self.clock = clock
        self._iterators: dict[int, dict[str, str]] = {}
        self._arns: dict[int, str] = {}

    def start(self) -> Self:
        for index, mapping in enumerate(self.mappings):
            self._open(index, mapping)  # in the caller's thread: writes after start() are seen
        return super().start()

    def loops(self) -> list[Loop]:
        return [
            Loop(
                f"stream-{mapping.function.logical_id}",
                f"reading the stream for {mapping.function.logical_id}",
                partial(self.poll_once, index, mapping),
                self.poll_seconds,
                self.poll_seconds,
            )
            for index, mapping in enumerate(self.mappings)
        ]

    def _open(self, index: int, mapping: StreamMapping) -> None:
        table = self.dynamodb.describe_table(TableName=mapping.table_name)["Table"]
        arn = table.get("LatestStreamArn")
        if not arn:
            raise RuntimeError(f"table {mapping.table_name} has no stream for {mapping.function.logical_id}")
        self._arns[index] = arn
        self._iterators[index] = {}
        self._discover(index, mapping.stream.starting_position)

    def _discover(self, index: int, position: str) -> None:
        arn = self._arns[index]
        shards = self.streams.describe_stream(StreamArn=arn)["StreamDescription"].get("Shards", [])
        for shard in shards:
            if shard["ShardId"] in self._iterators[index]:
                continue
            self._iterators[index][shard["ShardId"]] = self.streams.get_shard_iterator(
                StreamArn=arn, ShardId=shard["ShardId"], ShardIteratorType=position
            )["ShardIterator"]

    def poll_once(self, index: int, mapping: StreamMapping) -> int:
        """Read each shard once and deliver what passes the filter; returns the records read."""
        # A shard that appears later is read from its start, as the mapping does after a split.
        self._discover(index, "TRIM_HORIZON")
        read = 0
        for shard_id, iterator in list(self._iterators[index].items()):
            response = self.streams.get_records(ShardIterator=iterator, Limit=mapping.stream.batch_size)
            self._iterators[index][shard_id] = response.get("NextShardIterator") or iterator
            records = response.get("Records", [])
            read += len(records)
            batch = [lambda_record(r, self._arns[index]) for r in records]
            batch = [r for r in batch if wanted(r, mapping.stream.filters)]
            if batch:
                self.deliver(mapping, batch)
        return read

    def deliver(self, mapping: StreamMapping, batch: list[dict[str, Any]]) -> bool:
        """Invoke until the batch succeeds or is given up; True when every record went through.

        A failed batch is retried from its lowest failed record while retries are left (all of them
        under ``MaximumRetryAttempts: -1``) and its oldest record is no older than
        ``MaximumRecordAgeInSeconds`` (any age under -1), then given up, as the mapping sends it to its
        on-failure destination. A stopping feeder stops retrying without giving the batch up.
        """
        stream = mapping.stream
        attempt = 0
        while True:
            failed = self._invoke(mapping, batch)
            if not failed:
                return True
            if failed is not batch:
                # Everything before the lowest failed record is done; the mapping resumes from there.
                lowest = min(failed, key=int)
                batch = [r for r in batch if int(r["dynamodb"]["SequenceNumber"]) >= int(lowest)]
            why = self._expired(stream, batch, attempt)
            if why:
                break
            attempt += 1
            if self.wait(self._retry_wait(stream, attempt)):
                LOG.info("%s.%s stopped while retrying", mapping.function.logical_id, stream.name)
                return False
        first, last = batch[0]["dynamodb"]["SequenceNumber"], batch[-1]["dynamodb"]["SequenceNumber"]
        self.report(
            f"{mapping.function.logical_id}.{stream.name} gave up on records {first}..{last} {why} "
            "(deployed: sent to its on-failure destination)"
        )
        return False

    def _retry_wait(self, stream: StreamSpec, attempt: int) -> float:
        """The pause before retry ``attempt`` (1, 2, ...): growing linearly under a bounded number of
        retries; doubling, capped at ``max_retry_wait_seconds``, under -1, which may retry for an hour."""
        if stream.maximum_retry_attempts < 0:
            doubled = self.retry_wait_seconds * 2.0 ** min(attempt - 1, 32)
            return min(doubled, self.max_retry_wait_seconds)
        return self.retry_wait_seconds * attempt

    def _expired(self, stream: StreamSpec, batch: list[dict[str, Any]], retries: int) -> str:
        """Why a batch that failed after ``retries`` retries is given up, or "" when it is retried."""
        limit = stream.maximum_record_age_in_seconds
        if limit >= 0:
            created = [r["dynamodb"].get("ApproximateCreationDateTime") for r in batch]
            oldest = min((float(c) for c in created if isinstance(c, int | float)), default=None)
            if oldest is not None and self.clock() - oldest > limit:
                return f"after {retries} retries: older than {limit} s"
        if 0 <= stream.maximum_retry_attempts <= retries:
            return f"after {retries} retries"
        return ""

    def _invoke(self, mapping: StreamMapping, batch: list[dict[str, Any]]) -> Any:
        """The failed sequence numbers, ``batch`` itself when the whole invocation failed, or []."""
        name = f"{mapping.function.logical_id}.{mapping.stream.name}"
        context = LambdaContext.for_function(mapping.function, self.region)
        ran, result = self.run_handler(
            name, mapping.handler, {"Records": batch}, context, failure=f"failed on {len(batch)} records"
        )
        if not ran:
            return batch
        if not mapping.stream.report_batch_item_failures:
            return []
        return failed_sequence_numbers(result)
