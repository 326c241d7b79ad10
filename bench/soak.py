"""`make soak [GAMES=1000] [MAX_RSS_MB=500]`: play many complete games over HTTP and watch the stack's memory.

It starts ``python -m local_stack serve`` (what ``make run`` runs) on a free port, unless ``--url`` and
``--pid`` name one already running, then has small random bots play ``--games`` complete games through
the API, ``--concurrency`` games at a time. It prints the server's resident memory (RSS) at the start,
after a warm-up, at its peak and at the end, and games per second. ``--max-rss-mb`` turns the memory
bound into the exit code. ``start_stack`` is also how ``bench/http_rate.py`` starts its stack.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CLUES = ("a quiet storm", "home", "the last door", "what the moon forgot")
STARTUP_SECONDS = 120.0
WARM_UP_GAMES = 20


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` in MB, from /proc (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for {pid}")


@dataclass
class Tally:
    games: int = 0
    requests: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, status: int) -> None:
        with self.lock:
            self.requests += 1
            self.statuses[status] += 1


class Player:
    def __init__(self, base_url: str, name: str, tally: Tally) -> None:
        self.base_url = base_url
        self.tally = tally
        self.token = ""
        self.player_id = ""
        created = self.send("POST", "/players", {"name": name}, expect=201)
        self.token, self.player_id = created["token"], created["player_id"]

    def send(self, method: str, path: str, body: Any = None, *, expect: int = 200) -> Any:
        request = urllib.request.Request(  # noqa: S310 - base_url is the local stack's http:// URL
            self.base_url + path,
            data=None if body is None else json.dumps(body).encode(),
            method=method,
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {self.token}"},
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as response:  # noqa: S310
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        self.tally.count(status)
        if status != expect:
            raise RuntimeError(f"{method} {path}: {status} {raw[:300]!r}")
        return json.loads(raw) if raw else None


def choose(view: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]]:
    """A random legal move for the viewer the round waits on (the rules of ``tests/api/json_bot.py``)."""
    rnd, you = view["round"], view["you"]
    hand = [card["card_id"] for card in you["hand"]]
    if rnd["storyteller_id"] == you["player_id"]:
        return "clue", {"card_id": rng.choice(hand), "clue": rng.choice(CLUES)}
    if view["phase"] == "submitting":
        return "submissions", {"card_ids": rng.sample(hand, 2 if len(view["players"]) == 3 else 1)}
    options = [card["card_id"] for card in rnd["table"] if card["card_id"] not in you["submitted"]]
    return "votes", {"card_ids": [rng.choice(options)]}


def play_one(base_url: str, index: int, players: int, target_score: int, tally: Tally) -> None:
    rng = random.Random(index)
    seated = [Player(base_url, f"soak{index}-{seat}", tally) for seat in range(players)]
    host = seated[0]
    game = host.send("POST", "/games", {"rules": "classic", "target_score": target_score}, expect=201)
    game_id = game["game_id"]
    for player in seated[1:]:
        player.send("POST", f"/games/{game_id}/join")
    host.send("POST", f"/games/{game_id}/start")
    by_id = {player.player_id: player for player in seated}
    for _ in range(10_000):
        view = host.send("GET", f"/games/{game_id}")
        if view["phase"] == "finished":
            with tally.lock:
                tally.games += 1
            return
        for player_id in view["round"]["waiting_for"]:
            player = by_id[player_id]
            route, body = choose(player.send("GET", f"/games/{game_id}"), rng)
            player.send("POST", f"/games/{game_id}/{route}", body)
    raise RuntimeError(f"game {game_id} did not end")


def start_stack(
    state_file: Path, options: Sequence[str] = ("--seed-decks", "base")
) -> tuple[subprocess.Popen[bytes], dict[str, Any]]:
    """`python -m local_stack serve` on free ports with `options`; the process and its state file."""
    process = subprocess.Popen(  # our own interpreter and module
        [
            *(sys.executable, "-m", "local_stack", "serve", "--port", "0"),
            *("--state-file", str(state_file), *options),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the local stack exited during start-up")
        try:
            state = json.loads(state_file.read_text())
        except (OSError, ValueError):
            time.sleep(0.2)
            continue
        if state.get("pid") == process.pid and state.get("api_url"):
            return process, state
        time.sleep(0.2)
    process.kill()
    raise RuntimeError("the local stack did not start")


def soak(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as scratch:
        process = None
        if args.url:
            base_url, pid = args.url.rstrip("/"), args.pid
        else:
            process, state = start_stack(Path(scratch) / "state.json")
            base_url = str(state["api_url"])
            pid = process.pid
        try:
            return run_games(args, base_url, pid)
        finally:
            if process is not None:
                process.terminate()
                process.wait(60)


def run_games(args: argparse.Namespace, base_url: str, pid: int | None) -> int:
    tally = Tally()
    stopping = threading.Event()
    signal.signal(signal.SIGINT, lambda *_: stopping.set())
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    rss = {"start": rss_mb(pid) if pid else 0.0}
    peak = [rss["start"]]
    warm_up = min(WARM_UP_GAMES, args.games)

    def play(index: int) -> None:
        if stopping.is_set():
            return
        try:
            play_one(base_url, index, args.players, args.target_score, tally)
        except Exception as exc:
            with tally.lock:
                tally.failures.append(str(exc))
        if pid:
            peak[0] = max(peak[0], rss_mb(pid))
        done = tally.games + len(tally.failures)
        if done % max(1, args.games // 20) == 0:
            print(f"  {done}/{args.games} games, RSS {rss_mb(pid) if pid else 0:.0f} MB", flush=True)

    with ThreadPoolExecutor(args.concurrency) as pool:
        list(pool.map(play, range(warm_up)))
    rss["after warm-up"] = rss_mb(pid) if pid else 0.0
    started = time.perf_counter()
    with ThreadPoolExecutor(args.concurrency) as pool:
        list(pool.map(play, range(warm_up, args.games)))
    elapsed = time.perf_counter() - started
    rss["end"] = rss_mb(pid) if pid else 0.0
    rss["peak"] = peak[0]

    timed_games = args.games - warm_up
    if stopping.is_set():
        print("soak: stopped early by a signal; the figures cover the games played")
    print(
        f"soak: {tally.games}/{args.games} games finished"
        f" ({args.players} players, target score {args.target_score}),"
        f" {len(tally.failures)} failed, {tally.requests} requests,"
        f" statuses {dict(sorted(tally.statuses.items()))}"
    )
    if timed_games:
        print(
            f"soak: {(tally.games - warm_up) / elapsed:.2f} games/s after warm-up,"
            f" {tally.requests / (elapsed or 1):.0f} requests/s (concurrency {args.concurrency})"
        )
    if pid:
        print("soak: server RSS " + ", ".join(f"{name} {value:.0f} MB" for name, value in rss.items()))
    for failure in tally.failures[:5]:
        print(f"soak: failure: {failure}")
    if tally.failures:
        return 1
    if args.max_rss_mb and pid and rss["peak"] > args.max_rss_mb:
        print(f"soak: peak RSS {rss['peak']:.0f} MB is above the bound of {args.max_rss_mb} MB")
        return 1
    return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=1000, help="complete games to play (default 1000)")
    parser.add_argument("--players", type=int, default=3, help="players per game (default 3)")
    parser.add_argument("--target-score", type=int, default=30, help="points that end a game (default 30)")
    parser.add_argument("--concurrency", type=int, default=4, help="games played at once (default 4)")
    parser.add_argument("--url", help="soak a stack already running here instead of starting one")
    parser.add_argument("--pid", type=int, help="with --url: the server process whose RSS to watch")
    parser.add_argument("--max-rss-mb", type=float, default=0, help="fail when peak RSS exceeds this")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/soak.py", description=__doc__)
    add_arguments(parser)
    return soak(parser.parse_args(argv))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
