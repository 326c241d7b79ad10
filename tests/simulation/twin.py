"""The season over the twin: the real handlers, the stream consumer and the sweep, on moto.

Players hear "your turn" only from GameStreamFunction (fed from the table's stream, as Lambda's event source
mapping would) and act through ApiFunction's lambda_handler with API Gateway events. SweepFunction runs on
its schedule with the scheduled event's time. About a hundred times slower than `memory.MemoryWorld`:
`make test` plays a few games here, `make simulate` its 200 in memory.
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import boto3
from moto import mock_aws

from app.games import state_codec
from dixit.state import GameState

from .model import FakeClock, Heard

TABLE = "dixit-simulation"
ENVIRONMENT = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
    "TABLE_NAME": TABLE,
    "CARD_BUCKET": "",
    "POWERTOOLS_TRACE_DISABLED": "true",
    "POWERTOOLS_METRICS_NAMESPACE": "DixitSimulation",
    "POWERTOOLS_LOG_LEVEL": "ERROR",
    "POWERTOOLS_METRICS_DISABLED": "true",
    "LOG_LEVEL": "ERROR",
}
# botocore sends stream calls to an account-specific host that moto does not route.
STREAMS_ENDPOINT = "https://streams.dynamodb.us-east-1.amazonaws.com"


class StreamPump:
    """Reads the table's stream from where it stopped, shard by shard, and hands game items'
    records to GameStreamFunction in batches, as the template's event source mapping (and filter) would."""

    def __init__(self, table: str, batch_size: int = 50) -> None:
        self.client = boto3.client("dynamodbstreams", endpoint_url=STREAMS_ENDPOINT)
        self.arn = boto3.client("dynamodb").describe_table(TableName=table)["Table"]["LatestStreamArn"]
        self.batch_size = batch_size
        self.iterators: dict[str, str | None] = {}
        # From each game item's newest image: its due entry, and how it ended once finished.
        self.due: dict[str, int] = {}
        self.ended: dict[str, GameState] = {}

    def _new_records(self) -> list[dict[str, Any]]:
        shards = self.client.describe_stream(StreamArn=self.arn)["StreamDescription"]["Shards"]
        found: list[dict[str, Any]] = []
        for shard in shards:
            shard_id = shard["ShardId"]
            iterator = self.iterators.get(shard_id)
            if iterator is None:
                iterator = self.client.get_shard_iterator(
                    StreamArn=self.arn, ShardId=shard_id, ShardIteratorType="TRIM_HORIZON"
                )["ShardIterator"]
            response = self.client.get_records(ShardIterator=iterator)
            found += response["Records"]
            self.iterators[shard_id] = response.get("NextShardIterator")
        return found

    def pump(self) -> list[tuple[GameState | None, GameState]]:
        """Hand what is new to GameStreamFunction; the game changes it carried (old, new)."""
        from handlers.game_stream import lambda_handler

        records = [
            {**r, "dynamodb": _plain(r["dynamodb"]), "eventSourceARN": self.arn}
            for r in self._new_records()
            if r["dynamodb"]["Keys"].get("sk", {}).get("S") == "STATE"
        ]
        changes: list[tuple[GameState | None, GameState]] = []
        for record in records:
            self._note(record["dynamodb"].get("NewImage") or {})
            old, new = (_game(record["dynamodb"].get(side) or {}) for side in ("OldImage", "NewImage"))
            if new is not None:
                changes.append((old, new))
        for start in range(0, len(records), self.batch_size):
            # Through JSON, as Lambda delivers it: binary attributes (the state) as base64 text.
            batch = {"Records": records[start : start + self.batch_size]}
            event = json.loads(json.dumps(batch, default=lambda raw: base64.b64encode(raw).decode("ascii")))
            answer = lambda_handler(event, _Context("GameStreamFunction"))
            if answer.get("batchItemFailures"):
                raise RuntimeError(f"GameStreamFunction failed records: {answer}")
        return changes

    def _note(self, image: dict[str, Any]) -> None:
        if "pk" not in image:
            return
        game_id = image["pk"]["S"].removeprefix("GAME#")
        if "due_at" in image:
            self.due[game_id] = int(image["due_at"]["N"])
        else:
            self.due.pop(game_id, None)
        if image.get("phase", {}).get("S") == "finished":
            self.ended.setdefault(game_id, _stored(image["state"]))

    def earliest_due(self) -> int | None:
        return min(self.due.values(), default=None)


def _stored(attribute: dict[str, Any]) -> GameState:
    """A stored state: compressed bytes (app.games.state_codec), or the JSON of an older item."""
    return state_codec.unpack(attribute["B"] if "B" in attribute else attribute["S"])


def _game(image: dict[str, Any]) -> GameState | None:
    return _stored(image["state"]) if "state" in image else None


def _plain(change: dict[str, Any]) -> dict[str, Any]:
    out = dict(change)
    created = out.get("ApproximateCreationDateTime")
    if created is not None and not isinstance(created, int | float):
        out["ApproximateCreationDateTime"] = int(created.timestamp())
    return out


class _Context:
    memory_limit_in_mb = 512
    aws_request_id = "simulation"

    def __init__(self, name: str, budget_ms: int = 60_000) -> None:
        self.function_name = name
        self.invoked_function_arn = f"arn:aws:lambda:us-east-1:123456789012:function:{name}"
        self.budget_ms = budget_ms

    def get_remaining_time_in_millis(self) -> int:
        return self.budget_ms


@contextmanager
def aws_twin() -> Iterator[None]:
    from app.aws import clients as aws_clients
    from app.core.settings import get_settings
    from local_stack.resources import create_table
    from local_stack.twin import patch_dynamodb
    from tests.support.aws import game_table_resource

    # moto copies the whole table on every transaction (200 games would need over 13 GB) and sorts it
    # on every query (200 games would never finish): the twin's patches, as `make run` uses them.
    patch_dynamodb()

    saved = {name: os.environ.get(name) for name in [*ENVIRONMENT, "AWS_ENDPOINT_URL", "NUDGE_TOPIC_ARN"]}
    os.environ.update(ENVIRONMENT)
    os.environ.pop("AWS_ENDPOINT_URL", None)
    try:
        with mock_aws():
            get_settings.cache_clear()
            aws_clients.reset()
            create_table(boto3.client("dynamodb"), TABLE, game_table_resource())
            os.environ["NUDGE_TOPIC_ARN"] = boto3.client("sns").create_topic(Name="dixit-simulation")[
                "TopicArn"
            ]
            get_settings.cache_clear()
            # The outbox's queues in process, delivered at once: the season hears what the outbox sends.
            import pytest

            from tests.support.outbox import queue_in_process

            with pytest.MonkeyPatch.context() as env:
                queue_in_process(env)
                yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        get_settings.cache_clear()
        aws_clients.reset()


def _scheduled(at: datetime) -> dict[str, Any]:
    return {
        "version": "0",
        "id": f"sim-{int(at.timestamp())}",
        "detail-type": "Scheduled Event",
        "source": "aws.events",
        "account": "123456789012",
        "time": at.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "region": "us-east-1",
        "resources": ["arn:aws:events:us-east-1:123456789012:rule/NudgeSweep"],
        "detail": {},
    }


class TwinWorld:
    """Inside `aws_twin()`: every player a `tests.api.client.Client`, the sweep its scheduled event."""

    def __init__(self, clock: FakeClock | None = None) -> None:
        from app.aws import clients as aws_clients

        self.clock = clock if clock is not None else FakeClock()
        self.clients: dict[str, Any] = {}
        self._published: list[tuple[str, str, str]] = []
        for sns in (aws_clients.sns(), aws_clients.sns_once()):  # notifications publish through the second
            sns.meta.events.register("provide-client-params.sns.Publish", self._on_publish)
        self.pump = StreamPump(TABLE)

    def _on_publish(self, params: dict[str, Any], **_: Any) -> None:
        attributes = params.get("MessageAttributes") or {}
        if "TopicArn" in params and "kind" in attributes:
            self._published.append(
                (
                    attributes["kind"]["StringValue"],
                    attributes["player_id"]["StringValue"],
                    attributes["game_id"]["StringValue"],
                )
            )

    def register(self, name: str) -> str:
        from tests.api.client import Client

        client = Client(name).register()
        self.clients[client.player_id] = client
        return client.player_id

    def create(self, host_id: str, body: dict[str, Any]) -> tuple[str, str]:
        reply = self.clients[host_id].post("/games", body)
        assert reply.status == 201, reply.raw
        return reply.body["game_id"], reply.body["invite_code"]

    def join(self, player_id: str, game_id: str, invite_code: str) -> None:
        joined = self.clients[player_id].post(f"/games/{game_id}/join", {"invite_code": invite_code})
        assert joined.status == 200, joined.raw

    def set_preferences(self, player_id: str, body: dict[str, Any]) -> None:
        saved = self.clients[player_id].put("/players/me/notifications", body)
        assert saved.status == 200, saved.raw

    def start(self, host_id: str, game_id: str) -> None:
        started = self.clients[host_id].post(f"/games/{game_id}/start")
        assert started.status == 200, started.raw

    def view(self, player_id: str, game_id: str) -> dict[str, Any]:
        body: dict[str, Any] = self.clients[player_id].get(f"/games/{game_id}").body
        return body

    def move(self, player_id: str, game_id: str, route: str, body: dict[str, Any]) -> str | None:
        reply = self.clients[player_id].post(f"/games/{game_id}/{route}", body)
        if reply.status == 200:
            return None
        return str((reply.body or {}).get("code") or reply.status)

    def sweep(self) -> dict[str, Any]:
        from app.core.telemetry import metrics
        from handlers.sweep import lambda_handler

        report: dict[str, Any] = lambda_handler(_scheduled(self.clock.now), _Context("SweepFunction"))
        metrics.clear_metrics()
        return report

    def hear(self) -> Heard:
        changes = self.pump.pump()
        fresh, self._published = self._published, []
        return Heard(fresh, changes)

    def earliest_due(self) -> int | None:
        return self.pump.earliest_due()

    def finished(self) -> dict[str, GameState]:
        return dict(self.pump.ended)


@contextmanager
def twin_clock(clock: FakeClock) -> Iterator[None]:
    """The handlers build their services with `utc_now` as the clock: the fake one while the season runs."""
    from app.core import clock as wall_clock

    real = wall_clock.utc_now
    wall_clock.utc_now = clock
    try:
        yield
    finally:
        wall_clock.utc_now = real
