"""End to end over the local stack: autoplay, offered seats, vacations and rematches, over real HTTP.

The API runs on the real clock, so a timeout is reached by running the sweep (SweepFunction's handler,
in a child process pointed at the stack's AWS twin) with a scheduled time hours ahead, as EventBridge
would name it once those hours had passed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from local_stack.invoke import configure_aws_environment
from local_stack.schedules import scheduled_event

from ..api.json_bot import play_to_the_end
from ..local_stack.test_local_serve import Served, child_env, start_serve, stop
from .test_e2e_http import HttpClient

SWEEP = (
    "import json, sys\n"
    "from handlers.sweep import lambda_handler\n"
    "from local_stack.runtime import LambdaContext\n"
    "context = LambdaContext('SweepFunction', timeout_seconds=60.0)\n"
    "print(json.dumps(lambda_handler(json.loads(sys.argv[1]), context)))\n"
)


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    running = start_serve(tmp_path_factory.mktemp("e2e-absences"))
    try:
        yield running
    finally:
        assert stop(running.process) == 0, running.logs()


def sweep_in(stack: Served, hours: float) -> dict[str, Any]:
    """One sweep run as if `hours` had passed: its event names that time."""
    state = stack.state()
    env = {**child_env(), **state["environment"]}
    configure_aws_environment(state["aws_endpoint_url"], environ=env)
    event = scheduled_event("SweepFunctionNudgeSweep", when=datetime.now(UTC) + timedelta(hours=hours))
    done = subprocess.run(
        [sys.executable, "-c", SWEEP, json.dumps(event)], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return report


def players(stack: Served, count: int, prefix: str) -> list[HttpClient]:
    return [HttpClient(f"{prefix} {i}", base_url=stack.api_url).register() for i in range(count)]


def seated(clients: list[HttpClient], **settings: Any) -> tuple[str, str]:
    created = clients[0].post("/games", {"move_timeout_hours": 1, "visibility": "private", **settings})
    assert created.status == 201, created.raw
    game_id, invite = created.body["game_id"], created.body["invite_code"]
    for guest in clients[1:]:
        assert guest.post(f"/games/{game_id}/join", {"invite_code": invite}).status == 200
    assert clients[0].post(f"/games/{game_id}/start").status == 200
    return game_id, invite


def look(client: HttpClient, game_id: str) -> dict[str, Any]:
    reply = client.get(f"/games/{game_id}")
    assert reply.status == 200, reply.raw
    body: dict[str, Any] = reply.body
    return body


def clue(clients: list[HttpClient], game_id: str) -> HttpClient:
    teller_id = look(clients[0], game_id)["round"]["storyteller_id"]
    teller = next(c for c in clients if c.player_id == teller_id)
    card = look(teller, game_id)["you"]["hand"][0]["card_id"]
    assert teller.post(f"/games/{game_id}/clue", {"card_id": card, "clue": "far away"}).status == 200
    return teller


def test_a_timed_out_submitter_has_a_card_on_the_table_marked_autoplayed_and_their_seat_is_taken(
    stack: Served,
) -> None:
    clients = players(stack, 4, "Autoplay")
    host = clients[0]
    game_id, invite = seated(clients)
    teller = clue(clients, game_id)
    silent = next(c for c in clients if c is not teller and c is not host)
    for client in clients:
        if client not in (teller, silent):
            card = look(client, game_id)["you"]["hand"][0]["card_id"]
            assert client.post(f"/games/{game_id}/submissions", {"card_ids": [card]}).status == 200

    report = sweep_in(stack, hours=2)

    assert report["timeouts_applied"] == 1, report
    seen = look(silent, game_id)
    assert seen["phase"] == "voting"
    assert seen["round"]["autoplayed"] == [silent.player_id]
    assert seen["you"]["submitted"][0] in [c["card_id"] for c in seen["round"]["table"]]

    # The host offers the silent seat; a newcomer takes it through the invite link.
    offered = host.post(f"/games/{game_id}/offer-seat", {"player_id": silent.player_id})
    assert offered.status == 200, offered.raw
    newcomer = HttpClient("Newcomer", base_url=stack.api_url).register()
    taken = newcomer.post(f"/games/{game_id}/join", {"invite_code": invite})
    assert taken.status == 200, taken.raw
    assert [c["card_id"] for c in taken.body["you"]["hand"]] == [c["card_id"] for c in seen["you"]["hand"]]
    old_score = next(p["score"] for p in seen["players"] if p["player_id"] == silent.player_id)
    assert (
        next(p["score"] for p in taken.body["players"] if p["player_id"] == newcomer.player_id) == old_score
    )
    # The seat's card is on the table already: the newcomer sits the rest of the round out (never learning
    # which card was the seat's) and plays from the next round.
    assert taken.body["you"]["owes"] is None
    assert taken.body["you"]["submitted"] == []
    assert newcomer.player_id in taken.body["round"]["sitting_out"]


def test_a_vacation_pushes_the_deadline_out(stack: Served) -> None:
    clients = players(stack, 3, "Vacation")
    game_id, _ = seated(clients)
    teller = clue(clients, game_id)
    away = next(c for c in clients if c is not teller)
    before = look(away, game_id)["you"]["owes"]["deadline"]
    reply = away.post(f"/games/{game_id}/vacation", {"days": 3})
    assert reply.status == 200, reply.raw
    after = reply.body["you"]["owes"]["deadline"]
    pushed = datetime.fromisoformat(after) - datetime.fromisoformat(before)
    assert pushed == timedelta(days=3)
    seat = next(p for p in look(teller, game_id)["players"] if p["player_id"] == away.player_id)
    assert seat["vacation_until"] is not None


def test_a_rematch_answers_one_lobby_for_two_calls(stack: Served) -> None:
    clients = players(stack, 3, "Rematch")
    game_id, _ = seated(clients, target_score=3)
    final = play_to_the_end(clients, game_id, seed=3)
    assert final["phase"] == "finished"
    one = clients[1].post(f"/games/{game_id}/rematch")
    two = clients[2].post(f"/games/{game_id}/rematch")
    assert one.status == two.status == 200, (one.raw, two.raw)
    assert one.body["game_id"] == two.body["game_id"] != game_id
    assert [p["player_id"] for p in two.body["players"]] == [clients[1].player_id, clients[2].player_id]
