"""Simultaneous players all get in: 11 joins or 11 votes at the same instant, each from its own process.

Each process is a Lambda execution environment calling the real lambda_handler against the local
stack's AWS twin (moto server, DynamoDB calls serialized as DynamoDB makes each conditional write
atomic). Every request must answer 200 and nothing may be lost. The default run holds a few trials;
the 50 the issue asks for run with `pytest -m slow tests/api/games/test_contention.py` (or
CONTENTION_TRIALS=50).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator
from multiprocessing.pool import Pool
from typing import Any

import boto3
import pytest

from app.core.settings import get_settings
from local_stack.resources import create_table
from local_stack.twin import TwinServer, patch_transact_write_items
from tests.support.aws import ENVIRONMENT, TABLE, forget_clients_and_settings, game_table_resource

from ..client import Client
from ..helpers import foreign_card, give_clue, hand, lobby, view
from . import contention_worker

SEATS = 12
CONTENDERS = SEATS - 1  # the joiners of a lobby its host opened; the voters of a round (not the storyteller)
DEFAULT_TRIALS = int(os.environ.get("CONTENTION_TRIALS", "3"))
FULL_TRIALS = 50


@pytest.fixture(scope="module")
def twin() -> Iterator[dict[str, str]]:
    patch_transact_write_items()
    server = TwinServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    environment = {**ENVIRONMENT, "AWS_ENDPOINT_URL": f"http://{host}:{port}", "CARD_BUCKET": ""}
    try:
        with pytest.MonkeyPatch.context() as env:
            for name, value in environment.items():
                env.setenv(name, value)
            forget_clients_and_settings()
            create_table(boto3.client("dynamodb"), TABLE, game_table_resource())
            yield environment
    finally:
        forget_clients_and_settings()
        server.stop()


@pytest.fixture(scope="module")
def environments(twin: dict[str, str]) -> Iterator[Pool]:
    """The execution environments, started once (spawned: nothing of this process leaks into them)."""
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager:
        barrier = manager.Barrier(CONTENDERS)
        with context.Pool(CONTENDERS, contention_worker.start, (twin, barrier)) as pool:
            yield pool


@pytest.fixture(scope="module")
def seated(twin: dict[str, str]) -> list[Client]:
    get_settings.cache_clear()
    return [Client(f"Player {n}").register() for n in range(SEATS)]


def all_at_once(pool: Pool, requests: list[tuple[str, str, str, Any]]) -> list[tuple[int, str]]:
    assert len(requests) == CONTENDERS
    return pool.map(contention_worker.invoke, requests, chunksize=1)


def twelve_join(pool: Pool, players: list[Client]) -> None:
    host, *guests = players
    created = host.post("/games", {"rules": "odyssey", "max_players": SEATS}).body
    game_id = created["game_id"]

    answers = all_at_once(pool, [("POST", f"/games/{game_id}/join", g.token, None) for g in guests])

    assert [status for status, _ in answers] == [200] * CONTENDERS, answers
    seats = [p["player_id"] for p in view(host, game_id)["players"]]
    assert sorted(seats) == sorted(p.player_id for p in players)
    assert view(host, game_id)["version"] == created["version"] + CONTENDERS  # one write each, none lost
    # Started, so that the next trial's lobby is within the host's quota of open public lobbies.
    assert host.post(f"/games/{game_id}/start").status == 200


def eleven_vote(pool: Pool, players: list[Client]) -> None:
    game_id = lobby(players, rules="odyssey", max_players=SEATS)
    assert players[0].post(f"/games/{game_id}/start").status == 200
    teller = give_clue(players, game_id)
    voters = [p for p in players if p is not teller]
    for voter in voters:
        assert (
            voter.post(f"/games/{game_id}/submissions", {"card_ids": hand(voter, game_id)[:1]}).status == 200
        )
    ballots = {v.player_id: foreign_card(v, game_id) for v in voters}

    answers = all_at_once(
        pool,
        [("POST", f"/games/{game_id}/votes", v.token, {"card_ids": [ballots[v.player_id]]}) for v in voters],
    )

    assert [status for status, _ in answers] == [200] * CONTENDERS, answers
    # The game's own reveal, not /rounds: the history item is the stream consumer's, not fed here.
    reveal = view(teller, game_id)["last_round"]
    assert reveal["number"] == 1
    cast = {voter: card["card_id"] for card in reveal["cards"] for voter in card["voter_ids"]}
    assert cast == ballots
    assert view(teller, game_id)["round"]["number"] == 2


def test_eleven_players_joining_a_twelve_seat_lobby_at_once_all_get_in(
    environments: Pool, seated: list[Client]
) -> None:
    for _ in range(DEFAULT_TRIALS):
        twelve_join(environments, seated)


def test_eleven_players_voting_at_once_in_a_twelve_player_game_all_count(
    environments: Pool, seated: list[Client]
) -> None:
    for _ in range(DEFAULT_TRIALS):
        eleven_vote(environments, seated)


@pytest.mark.slow
def test_fifty_trials_of_simultaneous_joins_and_votes_all_get_200(
    environments: Pool, seated: list[Client]
) -> None:
    for trial in range(FULL_TRIALS):
        # A player sits at no more than 30 unfinished games (docs/api.md): after ten trials (20 games),
        # every trial seats a new table.
        players = seated if trial < 10 else [Client(f"Player {trial}.{n}").register() for n in range(SEATS)]
        twelve_join(environments, players)
        eleven_vote(environments, players)
