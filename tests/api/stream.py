"""Feeding the game table's stream to GameStreamFunction the way Lambda's event source mapping does.

Reads moto's DynamoDB stream from where it last stopped, applies the template's filter (game items
only) and wraps the records in the event Lambda would send: what the local stack must do as well.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import boto3

from .client import FakeContext

# botocore now sends stream calls to an account-specific host that moto does not route.
STREAMS_ENDPOINT = "https://streams.dynamodb.us-east-1.amazonaws.com"


def _wanted(record: dict[str, Any]) -> bool:
    """The template's FilterCriteria: only keys with sk = STATE (game items) reach the function."""
    return bool(record["dynamodb"]["Keys"].get("sk", {}).get("S") == "STATE")


class StreamFeed:
    def __init__(self, table_name: str) -> None:
        self.client = boto3.client("dynamodbstreams", endpoint_url=STREAMS_ENDPOINT)
        self.stream_arn = boto3.client("dynamodb").describe_table(TableName=table_name)["Table"][
            "LatestStreamArn"
        ]
        # Where each shard's next unread record is: from now on, since what earlier tests wrote is not ours.
        self.positions: dict[str, str] = {
            shard_id: self._iterator(shard_id, "LATEST") for shard_id in self._shard_ids()
        }

    def _shard_ids(self) -> list[str]:
        description = self.client.describe_stream(StreamArn=self.stream_arn)["StreamDescription"]
        return [shard["ShardId"] for shard in description["Shards"]]

    def _iterator(self, shard_id: str, kind: str) -> str:
        iterator: str = self.client.get_shard_iterator(
            StreamArn=self.stream_arn, ShardId=shard_id, ShardIteratorType=kind
        )["ShardIterator"]
        return iterator

    def records(self) -> list[dict[str, Any]]:
        """Every record added since the last call, in order, shaped as in a Lambda event."""
        fresh: list[dict[str, Any]] = []
        for shard_id in self._shard_ids():
            iterator = self.positions.get(shard_id) or self._iterator(shard_id, "TRIM_HORIZON")
            while True:
                page = self.client.get_records(ShardIterator=iterator)
                iterator = page["NextShardIterator"]
                for record in page["Records"]:
                    change: dict[str, Any] = dict(record["dynamodb"])
                    created = change.get("ApproximateCreationDateTime")
                    if created is not None and not isinstance(created, int | float):
                        change["ApproximateCreationDateTime"] = int(created.timestamp())
                    fresh.append({**record, "dynamodb": change, "eventSourceARN": self.stream_arn})
                if not page["Records"]:
                    break
            self.positions[shard_id] = iterator
        return fresh

    def event(self, *, filtered: bool = True) -> dict[str, Any]:
        records = [r for r in self.records() if _wanted(r) or not filtered]
        # Through JSON, as Lambda delivers it: no datetimes, and binary attributes as base64 text.
        text = json.dumps({"Records": records}, default=lambda raw: base64.b64encode(raw).decode("ascii"))
        event: dict[str, Any] = json.loads(text)
        return event

    def deliver(self) -> dict[str, Any]:
        """Hand what the stream gathered since the last call to GameStreamFunction; returns its answer.

        Nothing new is no invocation at all, as with Lambda's event source mapping."""
        event = self.event()
        return invoke_notify(event) if event["Records"] else {"batchItemFailures": []}


def invoke_notify(event: dict[str, Any]) -> dict[str, Any]:
    from handlers.game_stream import lambda_handler

    result: dict[str, Any] = lambda_handler(event, FakeContext())
    return result
