"""`make simulate`: play a season and print its report (JSON); exit 1 if a game did not finish or a player
got two reminders within 12 hours."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from typing import Any

from . import Season, aws_twin, run_in_memory, run_on_twin


def one_line_per_field(report: dict[str, Any]) -> str:
    """The report as JSON, one top-level field a line (what docs/no-stall.md quotes)."""
    fields = [f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in report.items()]
    return "{\n" + ",\n".join(fields) + "\n}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A by-mail season on a fake clock; prints its report.")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--timeout-hours", type=int, default=48)
    parser.add_argument("--target-score", type=int, default=Season.target_score)
    parser.add_argument("--policy", default=None, help="timeout policy of every game (default: the default)")
    parser.add_argument(
        "--quiet-share", type=float, default=Season.quiet_share, help="players with quiet hours"
    )
    parser.add_argument("--no-absences", action="store_true", help="no vacations, extensions, offered seats")
    parser.add_argument("--twin", action="store_true", help="over moto and the real handlers (slow)")
    args = parser.parse_args(argv)
    season = Season(
        games=args.games,
        seed=args.seed,
        timeout_hours=args.timeout_hours,
        target_score=args.target_score,
        timeout_policy=args.policy,
        quiet_share=args.quiet_share,
    )
    if args.no_absences:
        season = season.without_absences()
    started = time.process_time()
    # The handlers' metrics (EMF lines on stdout) would bury the report: they go nowhere here.
    with open(os.devnull, "w") as nowhere, contextlib.redirect_stdout(nowhere):
        if args.twin:
            with aws_twin():
                report = run_on_twin(season)
        else:
            report = run_in_memory(season)
    print(one_line_per_field(report))
    # CPU time is not part of the report: the report is the same for the same seed, this is not.
    print(f"CPU seconds: {time.process_time() - started:.1f}", file=sys.stderr)
    ok = (
        report["games_finished"] == report["games"] and report["most_reminders_for_a_player_in_12_hours"] <= 1
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
