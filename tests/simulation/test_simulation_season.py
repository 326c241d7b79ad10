"""The season `make simulate` plays, in memory: the same seed, the same report."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from tests.simulation import Season, played_in_memory, run_in_memory

ROOT = Path(__file__).resolve().parents[2]


def _report_in_a_fresh_process(hash_seed: str) -> dict[str, object]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": os.pathsep.join(["src", "tools", "."])}
    done = subprocess.run(
        [sys.executable, "-m", "tests.simulation", "--games", "6", "--seed", "5"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    report: dict[str, object] = json.loads(done.stdout)
    return report


def test_two_seasons_with_one_seed_give_the_same_report() -> None:
    first = run_in_memory(Season(games=12, seed=3))
    assert first["games_finished"] == 12
    assert run_in_memory(Season(games=12, seed=3)) == first


def test_another_seed_plays_another_season() -> None:
    assert run_in_memory(Season(games=6, seed=3)) != run_in_memory(Season(games=6, seed=4))


def test_a_season_reports_the_same_in_two_processes_whatever_their_string_hashing() -> None:
    assert _report_in_a_fresh_process("1") == _report_in_a_fresh_process("2")


def test_the_report_breaks_every_ending_down_by_table_size_and_abandonment_by_who_kept_answering() -> None:
    report = run_in_memory(Season(games=12, seed=3))
    reasons = report["end_reasons"]
    by_size = report["end_reasons_by_table_size"]
    assert sum(reasons.values()) == report["games"]
    for reason, count in reasons.items():
        assert sum(counts.get(reason, 0) for counts in by_size.values()) == count
    assert set(by_size) <= {str(n) for n in range(3, 9)}
    assert sum(report["abandoned_by_answering_players"].values()) == reasons.get("abandoned", 0)


def test_the_season_sees_on_the_stream_every_player_the_sweep_timed_out() -> None:
    played = played_in_memory(Season(games=8, seed=3))
    assert played.tally.players_timed_out > 0
    assert len(played.tally.timed_out) == played.tally.players_timed_out


def test_nobody_is_told_of_a_move_or_timed_out_in_the_quiet_hours_they_set() -> None:
    season = Season(games=8, seed=3, quiet_share=0.5)
    told = run_in_memory(season)
    assert told["players_with_quiet_hours"] > 0
    assert told["messages_in_quiet_hours"] == {}
    assert told["timeouts_in_quiet_hours"] == 0
    # The same sleepers, their quiet hours never set: the count sees what reaches them at night.
    untold = run_in_memory(replace(season, quiet_hours_set=False))
    assert sum(untold["messages_in_quiet_hours"].values()) > 0
