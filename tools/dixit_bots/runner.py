"""Many games at once, with progress on stderr and a summary: finished games, moves, errors, latency."""

from __future__ import annotations

import math
import random
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TextIO

from dixit_bots.api import Transport
from dixit_bots.game import new_table, play, register


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile (0 when there is nothing to rank)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


@dataclass
class Stats:
    games: int
    started: float = field(default_factory=time.perf_counter)
    finished: int = 0
    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: Counter[int] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, label: str, status: int, seconds: float) -> None:
        with self.lock:
            self.latencies.append(seconds)
            if status >= 400:
                self.errors[status] += 1

    def moved(self) -> None:
        with self.lock:
            self.moves += 1

    def summary(self) -> str:
        elapsed = time.perf_counter() - self.started
        errors = ", ".join(f"{status}: {n}" for status, n in sorted(self.errors.items())) or "none"
        lines = [
            f"games finished: {self.finished}/{self.games}",
            f"moves: {self.moves}",
            f"requests: {len(self.latencies)} in {elapsed:.1f} s ({len(self.latencies) / elapsed:.0f}/s)",
            f"errors by status: {errors}",
            f"latency: p50 {percentile(self.latencies, 0.5) * 1000:.1f} ms, "
            f"p99 {percentile(self.latencies, 0.99) * 1000:.1f} ms",
        ]
        lines += [f"failed: {failure}" for failure in self.failures]
        return "\n".join(lines)


def run_games(
    transport: Transport,
    *,
    games: int,
    players: int,
    concurrency: int,
    settings: dict[str, Any],
    seed: int = 0,
    progress: TextIO | None = None,
) -> Stats:
    """Play `games` fresh games of `players` bots, `concurrency` of them at a time."""
    stats = Stats(games)
    out = progress or sys.stderr

    def one(number: int) -> None:
        rng = random.Random(seed * 100_003 + number)
        try:
            seated = register(transport, players, f"Bot {number}", stats.record)
            final = play(new_table(seated, settings), rng, on_move=stats.moved)
        except Exception as failed:  # a game that breaks is reported, the others go on
            with stats.lock:
                stats.failures.append(f"game {number}: {failed}")
            out.write(f"game {number} failed: {failed}\n")
            return
        with stats.lock:
            stats.finished += 1
            line = f"[{stats.finished + len(stats.failures)}/{games}] {final['game_id']} finished, "
            line += f"{stats.moves} moves so far, {sum(stats.errors.values())} errors\n"
        out.write(line)

    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        list(pool.map(one, range(games)))
    return stats
