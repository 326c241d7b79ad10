"""A by-mail season on a fake clock: the real handlers, the stream consumer and the sweep, on moto.

Players hear "your turn" only from GameStreamFunction (fed from the table's stream, as Lambda's event source
mapping would) and answer after a random delay of up to 1.5x the timeout, through ApiFunction's
lambda_handler with API Gateway events; one player in five never answers. SweepFunction runs on its
schedule with the scheduled event's time. Every game must finish.

    python -m tests.simulation --games 200       # what `make simulate` runs
"""

from __future__ import annotations

import argparse
import contextlib
import heapq
import json
import os
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
from moto import mock_aws

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
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
TWELVE_HOURS = 12 * 3600


class FakeClock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


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
        self.ended: dict[str, str] = {}

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

    def pump(self) -> int:
        from handlers.game_stream import lambda_handler

        records = [
            {**r, "dynamodb": _plain(r["dynamodb"]), "eventSourceARN": self.arn}
            for r in self._new_records()
            if r["dynamodb"]["Keys"].get("sk", {}).get("S") == "STATE"
        ]
        for record in records:
            self._note(record["dynamodb"].get("NewImage") or {})
        for start in range(0, len(records), self.batch_size):
            event = json.loads(json.dumps({"Records": records[start : start + self.batch_size]}))
            answer = lambda_handler(event, _Context("GameStreamFunction"))
            if answer.get("batchItemFailures"):
                raise RuntimeError(f"GameStreamFunction failed records: {answer}")
        return len(records)

    def _note(self, image: dict[str, Any]) -> None:
        if "pk" not in image:
            return
        game_id = image["pk"]["S"].removeprefix("GAME#")
        if "due_at" in image:
            self.due[game_id] = int(image["due_at"]["N"])
        else:
            self.due.pop(game_id, None)
        if image.get("phase", {}).get("S") == "finished":
            self.ended.setdefault(game_id, json.loads(image["state"]["S"]).get("end_reason") or "?")

    def earliest_due(self) -> int | None:
        return min(self.due.values(), default=None)


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


@dataclass
class Season:
    games: int
    seed: int
    timeout_hours: int = 48
    sweep_every: timedelta = timedelta(minutes=30)  # the template's rate is 5 minutes
    silent_share: float = 0.2
    target_score: int = 15
    max_days: int = 365
    # What was published to the topic: (epoch, kind, player_id, game_id)
    published: list[tuple[int, str, str, str]] = field(default_factory=list)
    moves: int = 0
    sweeps: int = 0
    lost_races: int = 0
    timeouts: int = 0
    refused: Counter[int] = field(default_factory=Counter)


@contextmanager
def aws_twin() -> Iterator[None]:
    from app.aws import clients as aws_clients
    from app.core.settings import get_settings
    from local_stack.resources import create_table
    from local_stack.twin import patch_dynamodb

    from .support.aws import game_table_resource

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
            yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        get_settings.cache_clear()
        aws_clients.reset()


def run(season: Season) -> dict[str, Any]:
    """Play the season; the report as a dict (printed by `main`, asserted by the test)."""
    from app.aws import clients as aws_clients
    from app.core import services
    from app.core.telemetry import metrics
    from handlers.sweep import lambda_handler as sweep_handler

    from .api.client import Client
    from .api.json_bot import choose

    rng = random.Random(season.seed)
    clock = FakeClock(T0)
    real_clock = services.utc_now
    services.utc_now = clock  # type: ignore[assignment]
    started_wall = time.perf_counter()
    try:

        def now() -> int:
            return int(clock.now.timestamp())

        sns = aws_clients.sns()

        def on_publish(params: dict[str, Any], **_: Any) -> None:
            attributes = params.get("MessageAttributes") or {}
            if "TopicArn" in params and "kind" in attributes:
                season.published.append(
                    (
                        now(),
                        attributes["kind"]["StringValue"],
                        attributes["player_id"]["StringValue"],
                        attributes["game_id"]["StringValue"],
                    )
                )

        sns.meta.events.register("provide-client-params.sns.Publish", on_publish)
        pump = StreamPump(TABLE)

        # Players: a pool a little larger than the seats, so some play several games at once.
        seats = [rng.randint(3, 8) for _ in range(season.games)]
        pool = [Client(f"P{i}").register() for i in range(max(8, int(sum(seats) * 0.8)))]
        silent = {c.player_id for c in rng.sample(pool, int(len(pool) * season.silent_share))}
        by_id = {c.player_id: c for c in pool}
        bots_rng = random.Random(season.seed + 1)

        # (when, order, game_id, player_id): a player opens the game and plays what they owe, if anything.
        agenda: list[tuple[int, int, str, str]] = []
        order = 0
        seen_turns = 0
        timeout_s = season.timeout_hours * 3600
        game_players: dict[str, list[str]] = {}
        started_at: dict[str, int] = {}

        def hear() -> None:
            """Deliver what the stream gathered; players answer their new turns after a random delay."""
            nonlocal order, seen_turns
            pump.pump()
            fresh = season.published[seen_turns:]
            seen_turns = len(season.published)
            for _, kind, player_id, game_id in fresh:
                if kind == "your_turn" and player_id not in silent:
                    order += 1
                    delay = rng.randint(60, int(1.5 * timeout_s))
                    heapq.heappush(agenda, (now() + delay, order, game_id, player_id))

        for g, count in enumerate(seats):
            members = rng.sample(pool, count)
            rules = "odyssey" if count > 6 else "classic"
            host = members[0]
            reply = host.post(
                "/games",
                {
                    "rules": rules,
                    "visibility": "private",
                    "max_players": count,
                    "target_score": season.target_score,
                    "move_timeout_hours": season.timeout_hours,
                },
            )
            assert reply.status == 201, reply.raw
            game_id = reply.body["game_id"]
            invite = reply.body["invite_code"]
            for guest in members[1:]:
                joined = guest.post(f"/games/{game_id}/join", {"invite_code": invite})
                assert joined.status == 200, joined.raw
            assert host.post(f"/games/{game_id}/start").status == 200
            game_players[game_id] = [m.player_id for m in members]
            started_at[game_id] = now()
            if g % 20 == 19:
                clock.now += timedelta(minutes=17)  # games start over a few hours, not all at once
        hear()

        finished: dict[str, tuple[int, str]] = {}

        def note_finished() -> None:
            for game_id, reason in pump.ended.items():
                finished.setdefault(game_id, (now(), reason))

        next_sweep = T0 + season.sweep_every
        end = T0 + timedelta(days=season.max_days)
        while len(finished) < len(game_players) and clock.now < end:
            if agenda and agenda[0][0] < int(next_sweep.timestamp()):
                when, _, game_id, player_id = heapq.heappop(agenda)
                clock.now = datetime.fromtimestamp(when, UTC)
                client = by_id[player_id]
                view = client.get(f"/games/{game_id}").body
                picked = choose(view, bots_rng)
                if picked is not None:
                    route, body = picked
                    reply = client.post(f"/games/{game_id}/{route}", body)
                    if reply.status == 200:
                        season.moves += 1
                    else:
                        season.refused[reply.status] += 1
                hear()
                note_finished()
                continue
            earliest = pump.earliest_due()
            if earliest is not None and earliest > int(next_sweep.timestamp()):
                # A run with nothing due changes nothing: skip the ticks until something is.
                ticks = (earliest - int(next_sweep.timestamp())) // int(season.sweep_every.total_seconds())
                next_sweep += ticks * season.sweep_every
                if agenda and agenda[0][0] < int(next_sweep.timestamp()):
                    continue
            clock.now = next_sweep
            next_sweep += season.sweep_every
            report = sweep_handler(_scheduled(clock.now), _Context("SweepFunction"))
            season.sweeps += 1
            season.lost_races += int(report["lost_races"])
            season.timeouts += int(report["timeouts_applied"])
            hear()
            note_finished()
            metrics.clear_metrics()
    finally:
        services.utc_now = real_clock  # type: ignore[assignment]
    return _report(season, game_players, started_at, finished, silent, time.perf_counter() - started_wall)


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


def most_reminders_in_12_hours(published: list[tuple[int, str, str, str]]) -> int:
    times: dict[str, list[int]] = defaultdict(list)
    for at, kind, player_id, _ in published:
        if kind == "reminder":
            times[player_id].append(at)
    most = 0
    for stamps in times.values():
        stamps.sort()
        lo = 0
        for hi, at in enumerate(stamps):
            while at - stamps[lo] >= TWELVE_HOURS:
                lo += 1
            most = max(most, hi - lo + 1)
    return most


def _report(
    season: Season,
    game_players: dict[str, list[str]],
    started_at: dict[str, int],
    finished: dict[str, tuple[int, str]],
    silent: set[str],
    wall_seconds: float,
) -> dict[str, Any]:
    days = sorted((finished[g][0] - started_at[g]) / 86_400 for g in finished)
    return {
        "games": len(game_players),
        "games_finished": len(finished),
        "end_reasons": dict(Counter(reason for _, reason in finished.values())),
        "players": len({p for ps in game_players.values() for p in ps}),
        "silent_players": len(silent),
        "most_reminders_for_a_player_in_12_hours": most_reminders_in_12_hours(season.published),
        "game_days": {
            "min": round(days[0], 1) if days else None,
            "median": round(statistics.median(days), 1) if days else None,
            "p90": round(days[int(len(days) * 0.9) - 1], 1) if len(days) >= 10 else None,
            "max": round(days[-1], 1) if days else None,
        },
        "notifications_by_kind": dict(sorted(Counter(kind for _, kind, _, _ in season.published).items())),
        "moves": season.moves,
        "moves_refused_by_status": dict(season.refused),
        "sweeps": season.sweeps,
        "timeouts_applied": season.timeouts,
        "sweep_races_lost": season.lost_races,
        "timeout_hours": season.timeout_hours,
        "wall_seconds": round(wall_seconds, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--timeout-hours", type=int, default=48)
    args = parser.parse_args(argv)
    # The handlers' metrics (EMF lines on stdout) would bury the report: they go nowhere here.
    with aws_twin(), open(os.devnull, "w") as nowhere, contextlib.redirect_stdout(nowhere):
        report = run(Season(games=args.games, seed=args.seed, timeout_hours=args.timeout_hours))
    print(json.dumps(report, indent=2))
    ok = (
        report["games_finished"] == report["games"] and report["most_reminders_for_a_player_in_12_hours"] <= 1
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
