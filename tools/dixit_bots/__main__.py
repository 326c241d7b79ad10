"""`python -m dixit_bots --url URL --games N --players K --concurrency C [--join GAME_ID]`."""

from __future__ import annotations

import argparse
import random
import sys

from dixit_bots.api import HttpTransport
from dixit_bots.game import fill_seats, play
from dixit_bots.runner import Stats, run_games


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m dixit_bots", description=__doc__)
    parser.add_argument("--url", required=True, help="the API's base URL, e.g. http://127.0.0.1:3000")
    parser.add_argument("--games", type=int, default=1, help="how many games to play (default 1)")
    parser.add_argument("--players", type=int, default=4, help="bots per game (with --join: at most)")
    parser.add_argument("--concurrency", type=int, default=1, help="games played at the same time")
    parser.add_argument("--rules", choices=("classic", "odyssey"), default=None)
    parser.add_argument("--target-score", type=int, default=None, help="end the game at this score")
    parser.add_argument("--seed", type=int, default=0, help="seed for the bots' choices")
    parser.add_argument("--join", metavar="GAME_ID", help="fill the empty seats of this game and play them")
    parser.add_argument("--invite-code", help="with --join: the invite code of a private game")
    parser.add_argument("--poll", type=float, default=2.0, help="with --join: seconds between polls")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    transport = HttpTransport(args.url)
    if args.join:
        stats = Stats(games=1)
        table = fill_seats(
            transport,
            args.join,
            invite_code=args.invite_code,
            at_most=args.players,
            record=stats.record,
        )
        print(f"seated {len(table.seats)} bots in {args.join}; playing until it ends", file=sys.stderr)
        try:
            play(table, random.Random(args.seed), poll_seconds=args.poll, on_move=stats.moved)
            stats.finished = 1
        except Exception as failed:
            stats.failures.append(f"{args.join}: {failed}")
    else:
        settings: dict[str, object] = {}
        if args.rules:
            settings["rules"] = args.rules
        if args.target_score:
            settings["target_score"] = args.target_score
        if args.players > 6:
            settings.setdefault("rules", "odyssey")
        if args.players > 6 or args.rules == "odyssey":
            settings["max_players"] = max(args.players, 3)
        stats = run_games(
            transport,
            games=args.games,
            players=args.players,
            concurrency=args.concurrency,
            settings=settings,
            seed=args.seed,
        )
    print(stats.summary())
    return 0 if not stats.failures and stats.finished == stats.games else 1


if __name__ == "__main__":
    sys.exit(main())
