"""Autoplay, vacations, extensions, offered seats and rematches through the API, over moto."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app.core import clock as wall_clock
from app.core.telemetry import metrics
from tests.support.clock import Clock

from ..client import Client, FakeContext
from ..helpers import assert_problem, give_clue, hand, play_to_the_end, started, view

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def clock(aws: None, monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock(T0)
    monkeypatch.setattr(wall_clock, "utc_now", fake)
    return fake


@pytest.fixture(autouse=True)
def _no_metric_buildup() -> Iterator[None]:
    yield
    metrics.clear_metrics()


def sweep_at(at: datetime) -> dict[str, Any]:
    from handlers.sweep import lambda_handler

    event = {
        "version": "0",
        "id": "5b4f0a3e-0000-4000-8000-000000000000",
        "detail-type": "Scheduled Event",
        "source": "aws.events",
        "account": "123456789012",
        "time": at.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "region": "us-east-1",
        "resources": ["arn:aws:events:us-east-1:123456789012:rule/NudgeSweep"],
        "detail": {},
    }
    result: dict[str, Any] = lambda_handler(event, FakeContext())
    return result


def clued(clients: list[Client], **settings: Any) -> tuple[str, Client, list[Client]]:
    game_id = started(clients, move_timeout_hours=4, visibility="private", **settings)
    teller = give_clue(clients, game_id)
    return game_id, teller, [c for c in clients if c is not teller]


def test_new_games_autoplay_by_default(players: list[Client], clock: Clock) -> None:
    game_id = started(players[:3])
    assert view(players[0], game_id)["settings"]["timeout_policy"] == "autoplay"
    assert view(players[0], game_id)["settings"]["vacation_days"] == 7


def test_a_timed_out_submitter_has_a_card_on_the_table_marked_autoplayed(
    players: list[Client], clock: Clock
) -> None:
    game_id, _, others = clued(players[:4])
    silent, *rest = others
    for client in rest:
        assert (
            client.post(f"/games/{game_id}/submissions", {"card_ids": hand(client, game_id)[:1]}).status
            == 200
        )
    sweep_at(T0 + timedelta(hours=5))
    seen = view(silent, game_id)
    assert seen["phase"] == "voting"
    assert seen["round"]["autoplayed"] == [silent.player_id]
    assert seen["you"]["submitted"][0] in [c["card_id"] for c in seen["round"]["table"]]


def test_a_vacation_pushes_the_deadline_out(players: list[Client], clock: Clock) -> None:
    game_id, _, (away, *_) = clued(players[:4])
    before = next(w for w in view(away, game_id)["round"]["waiting"] if w["player_id"] == away.player_id)
    reply = away.post(f"/games/{game_id}/vacation", {"days": 2})
    assert reply.status == 200, reply.raw
    mine = next(w for w in reply.body["round"]["waiting"] if w["player_id"] == away.player_id)
    assert datetime.fromisoformat(mine["deadline"]) - datetime.fromisoformat(before["deadline"]) == timedelta(
        days=2
    )
    seat = next(p for p in reply.body["players"] if p["player_id"] == away.player_id)
    assert seat["vacation_until"] == "2026-12-03T09:00:00Z"
    assert seat["vacation_days_left"] == 5
    assert_problem(away.post(f"/games/{game_id}/vacation", {"days": 1}), 409, "already_on_vacation")
    assert_problem(players[1].post(f"/games/{game_id}/vacation", {"days": 0}), 422, "validation_error")


def test_each_owed_move_says_when_a_nudge_for_it_is_fair_and_an_extension_moves_it(
    players: list[Client], clock: Clock
) -> None:
    game_id, teller, (late, *_) = clued(players[:4])
    waiting = {w["player_id"]: w for w in view(teller, game_id)["round"]["waiting"]}
    # 4-hour moves: a nudge is fair an hour in (a quarter), counted back from the deadline.
    assert waiting[late.player_id]["deadline"] == "2026-12-01T13:00:00Z"
    assert waiting[late.player_id]["nudge_after"] == "2026-12-01T10:00:00Z"
    extended = teller.post(f"/games/{game_id}/extend", {"player_id": late.player_id}).body
    mine = next(w for w in extended["round"]["waiting"] if w["player_id"] == late.player_id)
    assert (mine["deadline"], mine["nudge_after"]) == ("2026-12-02T13:00:00Z", "2026-12-02T10:00:00Z")


def test_an_extension_is_given_once_per_owed_move(players: list[Client], clock: Clock) -> None:
    game_id, teller, (late, *_) = clued(players[:4])
    reply = teller.post(f"/games/{game_id}/extend", {"player_id": late.player_id})
    assert reply.status == 200, reply.raw
    assert reply.body["round"]["extended"] == [late.player_id]
    again = teller.post(f"/games/{game_id}/extend", {"player_id": late.player_id})
    assert_problem(again, 409, "already_extended")


def test_an_offered_seat_is_taken_through_the_invite_link_and_the_newcomer_sees_hand_and_score(
    players: list[Client], clock: Clock
) -> None:
    host = players[0]
    game_id, _, others = clued(players[:4])
    silent = next(c for c in others if c is not host)
    for client in others:
        if client is not silent:
            client.post(f"/games/{game_id}/submissions", {"card_ids": hand(client, game_id)[:1]})
    sweep_at(T0 + timedelta(hours=5))
    old = view(silent, game_id)
    # The view tells the host whose seat may be offered: only the one who timed out.
    assert {p["player_id"] for p in view(host, game_id)["players"] if p["timed_out"]} == {silent.player_id}
    offered = host.post(f"/games/{game_id}/offer-seat", {"player_id": silent.player_id})
    assert offered.status == 200, offered.raw
    assert next(p for p in offered.body["players"] if p["player_id"] == silent.player_id)["offered"]
    newcomer = players[5]
    invite = offered.body["invite_code"]
    preview = newcomer.get(f"/games/{game_id}/preview", query={"invite_code": invite}).body
    assert (preview["offered_seats"], preview["joinable"], preview["free_seats"]) == (1, True, 2)
    taken = newcomer.post(f"/games/{game_id}/join", {"invite_code": invite})
    assert taken.status == 200, taken.raw
    assert [c["card_id"] for c in taken.body["you"]["hand"]] == [c["card_id"] for c in old["you"]["hand"]]
    seat = next(p for p in taken.body["players"] if p["player_id"] == newcomer.player_id)
    assert seat["score"] == next(p for p in old["players"] if p["player_id"] == silent.player_id)["score"]
    assert_problem(silent.get(f"/games/{game_id}"), 403, "not_a_member")


def test_a_newcomer_in_a_seat_taken_mid_round_gets_its_hand_but_not_its_card_on_the_table(
    players: list[Client], clock: Clock
) -> None:
    host = players[0]
    game_id, _, others = clued(players[:4])
    silent = next(c for c in others if c is not host)
    voters = [c for c in others if c is not silent]
    for client in voters:
        client.post(f"/games/{game_id}/submissions", {"card_ids": hand(client, game_id)[:1]})
    sweep_at(T0 + timedelta(hours=5))
    decoy = view(silent, game_id)["you"]["submitted"]  # autoplayed for the silent seat
    assert decoy
    invite = host.post(f"/games/{game_id}/offer-seat", {"player_id": silent.player_id}).body["invite_code"]
    newcomer = players[5]
    taken = newcomer.post(f"/games/{game_id}/join", {"invite_code": invite})
    assert taken.status == 200, taken.raw
    for seen in (taken.body, view(newcomer, game_id)):
        assert (seen["you"]["submitted"], seen["you"]["votes"]) == ([], [])
        assert not set(decoy) & {c["card_id"] for c in seen["you"]["hand"]}
        assert newcomer.player_id in seen["round"]["sitting_out"]
        assert newcomer.player_id not in seen["round"]["waiting_for"]
        assert seen["your_turn"] is False
    # Voting for any card is refused the same way, so a refusal cannot point at the seat's own.
    for card in view(newcomer, game_id)["round"]["table"]:
        vote = newcomer.post(f"/games/{game_id}/votes", {"card_ids": [card["card_id"]]})
        assert_problem(vote, 409, "sitting_out")
    # The others vote; the round is scored and the newcomer plays the next one from the seat's hand.
    for client in voters:
        table = [c["card_id"] for c in view(client, game_id)["round"]["table"]]
        mine = view(client, game_id)["you"]["submitted"]
        choice = next(c for c in table if c not in mine)
        assert client.post(f"/games/{game_id}/votes", {"card_ids": [choice]}).status == 200
    after = view(newcomer, game_id)
    assert after["round"]["number"] == 2
    assert after["phase"] == "storytelling"


def test_two_rematch_calls_answer_one_lobby(players: list[Client], clock: Clock) -> None:
    game_id = started(players[:3], target_score=1, visibility="private")
    play_to_the_end(players[:3], game_id)
    assert view(players[0], game_id)["phase"] == "finished"
    invited = view(players[1], game_id)["rematch_game_id"]
    # Before anyone opens it, its page says there is none; once opened, the finished game's players may
    # read who opened it (the lobby is private, and they hold no invite code), and nobody else may.
    assert_problem(players[2].get(f"/games/{invited}/preview"), 404, "game_not_found")
    # The rematch's own resource answers "not yet" without a 404 (a browser logs every 404 it fetched).
    before = players[2].get(f"/games/{game_id}/rematch")
    assert before.status == 200, before.raw
    assert before.body == {"rematch_game_id": invited, "lobby": None}
    one = players[1].post(f"/games/{game_id}/rematch")
    page = players[2].get(f"/games/{invited}/preview")
    assert page.status == 200, page.raw
    assert (page.body["host_name"], page.body["joinable"]) == (players[1].name, True)
    after = players[2].get(f"/games/{game_id}/rematch")
    assert after.status == 200, after.raw
    assert after.body == {"rematch_game_id": invited, "lobby": page.body}
    assert_problem(players[5].get(f"/games/{game_id}/rematch"), 403, "not_a_member")
    assert_problem(players[5].get(f"/games/{invited}/preview"), 403, "invite_required")
    two = players[2].post(f"/games/{game_id}/rematch")
    assert one.status == two.status == 200, (one.raw, two.raw)
    assert one.body["game_id"] == two.body["game_id"] == invited != game_id
    assert one.headers["Location"].endswith(f"/games/{one.body['game_id']}")
    assert [p["player_id"] for p in two.body["players"]] == [players[1].player_id, players[2].player_id]
    assert two.body["phase"] == "lobby"
    assert_problem(players[5].post(f"/games/{game_id}/rematch"), 403, "not_a_member")


def test_the_host_removes_a_player_who_timed_out_and_the_seat_leaves_when_the_round_ends(
    players: list[Client], clock: Clock
) -> None:
    host = players[0]
    game_id, _, others = clued(players[:5])
    silent = next(c for c in others if c is not host)
    assert_problem(
        host.post(f"/games/{game_id}/remove-player", {"player_id": silent.player_id}), 409, "not_timed_out"
    )
    for client in others:
        if client is not silent:
            client.post(f"/games/{game_id}/submissions", {"card_ids": hand(client, game_id)[:1]})
    sweep_at(T0 + timedelta(hours=5))
    reply = host.post(f"/games/{game_id}/remove-player", {"player_id": silent.player_id})
    assert reply.status == 200, reply.raw
    assert next(p for p in reply.body["players"] if p["player_id"] == silent.player_id)["leaving"]
    assert_problem(
        silent.post(f"/games/{game_id}/remove-player", {"player_id": host.player_id}), 403, "not_host"
    )
    sweep_at(T0 + timedelta(hours=10))
    assert silent.player_id not in [p["player_id"] for p in view(host, game_id)["players"]]
