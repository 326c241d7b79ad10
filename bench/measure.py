"""One benchmark run against whatever `dixit`/`app`/`handlers` are first on sys.path; prints JSON.

Run by bench/run.py twice, once for a baseline checkout and once for the work tree, so both are
measured on the same machine in the same minute.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

REPEATS = int(os.environ.get("BENCH_REPEATS", "5"))


def best_of(fn: Callable[[], Any], repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bot_game(players: int, rules: str, seed: int) -> int:
    from dixit.bots import RandomBot, next_mover
    from dixit.engine import apply, new_game
    from dixit.moves import Join, Start
    from dixit.settings import Settings
    from dixit.views import view_for

    state = new_game("g_bench", host_id="p0", host_name="P0", settings=Settings.build(rules), seed=seed)
    for i in range(1, players):
        state = apply(state, Join(f"p{i}", f"P{i}"), now=0).state
    state = apply(state, Start("p0"), now=0).state
    bots = {f"p{i}": RandomBot(f"p{i}", seed + i) for i in range(players)}
    moves = 0
    while (mover := next_mover(state)) is not None:
        move = bots[mover].choose(view_for(state, mover))
        assert move is not None
        state = apply(state, move, now=0).state
        moves += 1
    return moves


def engine_measures() -> dict[str, float]:
    out: dict[str, float] = {}
    for players, rules in ((4, "classic"), (12, "odyssey")):
        moves = bot_game(players, rules, 1)
        seconds = best_of(lambda p=players, r=rules: bot_game(p, r, 1))
        out[f"engine {players}p {rules}: µs per move"] = seconds / moves * 1e6
    tracemalloc.start()
    bot_game(12, "odyssey", 2)
    out["engine 12p odyssey game: peak KiB"] = tracemalloc.get_traced_memory()[1] / 1024
    tracemalloc.stop()
    return out


def api_measures() -> dict[str, float]:
    """A 4-player game through lambda_handler over moto: what a move costs end to end in-process."""
    import boto3
    from moto import mock_aws

    os.environ.update(
        AWS_ACCESS_KEY_ID="bench",
        AWS_SECRET_ACCESS_KEY="bench",
        AWS_DEFAULT_REGION="us-east-1",
        TABLE_NAME="dixit-bench",
        POWERTOOLS_TRACE_DISABLED="true",
        POWERTOOLS_METRICS_NAMESPACE="DixitBench",
        POWERTOOLS_LOG_LEVEL="WARNING",
    )
    os.environ.pop("AWS_ENDPOINT_URL", None)
    from tests.api import client as api_client
    from tests.api.json_bot import play_to_the_end

    from local_stack.resources import create_table
    from local_stack.template import load_template

    requests = 0
    real_call = api_client.call

    def counted_call(*args: Any, **kwargs: Any) -> Any:
        nonlocal requests
        requests += 1
        return real_call(*args, **kwargs)

    api_client.call = counted_call
    with mock_aws():
        create_table(boto3.client("dynamodb"), "dixit-bench", load_template()["Resources"]["GameTable"])
        clients = [api_client.Client(f"Bench {i}").register() for i in range(4)]
        game_id = clients[0].post("/games", {"rules": "classic", "target_score": 15}).body["game_id"]
        for guest in clients[1:]:
            guest.post(f"/games/{game_id}/join")
        clients[0].post(f"/games/{game_id}/start")
        requests = 0
        start = time.perf_counter()
        play_to_the_end(clients, game_id, seed=1)
        elapsed = time.perf_counter() - start
    return {"api 4p game via lambda_handler+moto: ms per request": elapsed / max(requests, 1) * 1000}


def cold_import_ms() -> dict[str, float]:
    """What a Lambda cold start pays to import the API handler (median of fresh interpreters)."""
    code = "import time; t = time.perf_counter(); import handlers.api; print(time.perf_counter() - t)"
    env = {**os.environ, "POWERTOOLS_TRACE_DISABLED": "true"}
    runs = [
        float(
            subprocess.run(
                [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
            ).stdout
        )
        for _ in range(REPEATS)
    ]
    return {"cold import of handlers.api: ms": statistics.median(runs) * 1000}


def main() -> None:
    measures = engine_measures()
    try:
        measures.update(cold_import_ms())
    except subprocess.CalledProcessError as failed:  # a baseline without the API
        print(f"skipping cold import: {failed}", file=sys.stderr)
    try:
        measures.update(api_measures())
    except ImportError as missing:  # an older baseline may predate the API or its test bot
        print(f"skipping API benchmark: {missing}", file=sys.stderr)
    print(json.dumps(measures))


if __name__ == "__main__":
    main()
