"""`make bench-http [WORKERS=N] [CONCURRENCY=C]`: moves/s through `make run` against the twin's own rate.

Starts the local stack as `make run` does (`python -m local_stack serve`, with `--workers N` execution
environments), then alternates two measurements in the same run, so both see the same machine:

- **raw**: C threads each doing conditional `UpdateItem`s (`SET n = n + 1` if `n` is what it read) on the
  stack's own DynamoDB twin, straight through boto3: the fastest a conditional write can go here;
- **moves**: C games of bots playing whole games through the HTTP API (each move is a token read, a
  consistent game read and one conditional write, plus the handler's validation, rules and stream).

It prints each round and the median of moves/s ÷ raw conditional updates/s (issue 10's target: ≥ 0.5).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tools")]


def raw_rate(state: dict[str, Any], concurrency: int, seconds: float) -> float:
    """Conditional updates per second on the twin, `concurrency` clients at once (each its own item)."""
    import boto3
    from botocore.config import Config

    table = state["resources"]["GameTable"]
    done = [0] * concurrency
    stop = time.perf_counter() + seconds

    def client_loop(index: int) -> None:
        client = boto3.client(
            "dynamodb",
            endpoint_url=state["aws_endpoint_url"],
            region_name=state["region"],
            aws_access_key_id="bench",
            aws_secret_access_key="bench",
            config=Config(retries={"max_attempts": 1}),
        )
        key = {"pk": {"S": f"BENCH#{index}"}, "sk": {"S": "RATE"}}
        client.put_item(TableName=table, Item={**key, "n": {"N": "0"}})
        n = 0
        while time.perf_counter() < stop:
            client.update_item(
                TableName=table,
                Key=key,
                UpdateExpression="SET n = n + :one",
                ConditionExpression="n = :n",
                ExpressionAttributeValues={":one": {"N": "1"}, ":n": {"N": str(n)}},
            )
            n += 1
        done[index] = n

    threads = [threading.Thread(target=client_loop, args=(i,)) for i in range(concurrency)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(done) / (time.perf_counter() - started)


def move_rate(api_url: str, concurrency: int, games: int, seed: int) -> tuple[float, int, dict[int, int]]:
    """Moves per second of `games` whole 4-player games, `concurrency` at a time, over HTTP."""
    from dixit_bots.api import HttpTransport
    from dixit_bots.runner import run_games

    with open(os.devnull, "w") as quiet:
        stats = run_games(
            HttpTransport(api_url),
            games=games,
            players=4,
            concurrency=concurrency,
            settings={"target_score": 10},
            seed=seed,
            progress=quiet,
        )
    elapsed = time.perf_counter() - stats.started
    if stats.failures:
        raise RuntimeError(f"bot games failed: {stats.failures[:3]}")
    return stats.moves / elapsed, stats.moves, dict(stats.errors)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=int(os.environ.get("DIXIT_LOCAL_WORKERS") or 2))
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=8, help="games per moves round")
    parser.add_argument("--raw-seconds", type=float, default=10.0)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        from soak import start_stack

        options = ("--aws-port", "0", "--workers", str(args.workers), "--no-seed")
        process, state = start_stack(Path(scratch) / "state.json", options)
        try:
            print(f"local stack {state['api_url']}: {args.workers} worker(s), concurrency {args.concurrency}")
            move_rate(state["api_url"], args.concurrency, args.concurrency, seed=999)  # warm every worker
            ratios = []
            for round_number in range(args.rounds):
                raw = raw_rate(state, args.concurrency, args.raw_seconds)
                moves, count, errors = move_rate(state["api_url"], args.concurrency, args.games, round_number)
                ratios.append(moves / raw)
                print(
                    f"round {round_number + 1}: raw conditional updates {raw:.1f}/s, "
                    f"moves {moves:.1f}/s ({count} moves, errors {errors or 'none'}), ratio {moves / raw:.3f}"
                )
            median = statistics.median(ratios)
            verdict = "met" if median >= 0.5 else "not met"
            print(f"moves/s ÷ raw conditional updates/s: median {median:.3f} (target ≥ 0.5: {verdict})")
        finally:
            process.terminate()
            process.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
