"""`python -m dixit_bots` against the local stack: real HTTP, real subprocess, zero errors expected."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from dixit_bots.__main__ import main
from dixit_bots.api import HttpTransport, Player
from dixit_bots.game import Table, play

from ..local_stack.test_local_serve import Served, start_serve, stop

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    running = start_serve(Path(tmp_path_factory.mktemp("bots")))
    try:
        yield running
    finally:
        stop(running.process)


def test_bots_finish_every_game_with_no_error_and_print_a_summary(
    stack: Served, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--url", stack.api_url, "--games", "2", "--players", "3", "--concurrency", "2"]
    assert main([*args, "--target-score", "6"]) == 0
    out = capsys.readouterr()
    assert "games finished: 2/2" in out.out
    assert "errors by status: none" in out.out
    assert "latency: p50" in out.out
    assert "finished" in out.err  # progress, one line per game


def test_bots_fill_the_empty_seats_of_a_real_game_and_play_them_to_the_end(
    stack: Served, capsys: pytest.CaptureFixture[str]
) -> None:
    host = Player(HttpTransport(stack.api_url), "Human host").register()
    created = host.expect("create", "POST", "/games", {"max_players": 4, "target_score": 6}, ok=201)
    game_id = created["game_id"]
    exit_codes: list[int] = []
    bots = threading.Thread(
        target=lambda: exit_codes.append(main(["--url", stack.api_url, "--join", game_id, "--poll", "0.05"]))
    )
    bots.start()
    try:
        seated = _wait_for_full_table(host, game_id)
        host.expect("start", "POST", f"/games/{game_id}/start")
        final = play(Table(game_id, {host.player_id: host}), random.Random(3), poll_seconds=0.05)
    finally:
        bots.join(timeout=120)
    assert seated == 4
    assert final["phase"] == "finished"
    assert exit_codes == [0]
    assert "games finished: 1/1" in capsys.readouterr().out


def _wait_for_full_table(host: Player, game_id: str) -> int:
    for _ in range(600):
        players = len(host.expect("view", "GET", f"/games/{game_id}")["players"])
        if players == 4:
            return players
        threading.Event().wait(0.05)
    return players
