"""One player cannot crowd out the others (#25: 1, 2): lobby and table quotas, and a fair open list."""

from __future__ import annotations

import time

import pytest

from app.games import quotas

from ..client import Client
from ..helpers import assert_problem, create_game, play_to_the_end, started


def open_game_ids(client: Client) -> list[str]:
    reply = client.get("/games")
    assert reply.status == 200, reply.raw
    return [g["game_id"] for g in reply.body["games"]]


def test_a_host_may_hold_three_public_lobbies_and_the_fourth_is_409_quota_exceeded(
    players: list[Client],
) -> None:
    host = players[0]
    for _ in range(quotas.MAX_PUBLIC_LOBBIES):
        create_game(host)
    body = assert_problem(host.post("/games", {}), 409, "quota_exceeded")
    assert "public" in body["detail"]
    create_game(host, visibility="private")  # private tables still open


def test_a_host_may_hold_ten_lobbies_in_all(players: list[Client]) -> None:
    host = players[0]
    for _ in range(quotas.MAX_LOBBIES):
        create_game(host, visibility="private")
    assert_problem(host.post("/games", {"visibility": "private"}), 409, "quota_exceeded")


def test_a_lobby_that_started_or_was_left_no_longer_counts(players: list[Client]) -> None:
    host = players[0]
    started = create_game(host)
    for guest in players[1:3]:
        assert guest.post(f"/games/{started}/join").status == 200
    left = create_game(host)
    create_game(host)
    assert_problem(host.post("/games", {}), 409, "quota_exceeded")
    assert host.post(f"/games/{started}/start").status == 200
    create_game(host)
    assert host.post(f"/games/{left}/leave").status == 200
    create_game(host)


def test_a_rematch_at_the_quota_is_refused_like_a_create(players: list[Client]) -> None:
    """#37: each finished game's rematch added one more public lobby, past every hosting quota."""
    game_id = started(players[:3], target_score=1)
    play_to_the_end(players[:3], game_id)
    host = players[1]
    for _ in range(quotas.MAX_PUBLIC_LOBBIES):
        create_game(host)
    assert_problem(host.post("/games", {}), 409, "quota_exceeded")
    body = assert_problem(host.post(f"/games/{game_id}/rematch"), 409, "quota_exceeded")
    assert "public" in body["detail"]
    # Nothing was opened: another player, within their quota, opens the rematch and hosts it.
    opened = players[2].post(f"/games/{game_id}/rematch")
    assert opened.status == 200, opened.raw
    assert opened.body["host_id"] == players[2].player_id


def test_a_player_at_the_most_unfinished_tables_cannot_join_another(
    players: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(quotas, "MAX_UNFINISHED_GAMES", 2)
    guest = players[1]
    for host in players[2:4]:
        assert guest.post(f"/games/{create_game(host)}/join").status == 200
    assert_problem(guest.post(f"/games/{create_game(players[4])}/join"), 409, "quota_exceeded")
    assert_problem(guest.post("/games", {}), 409, "quota_exceeded")


def test_the_open_list_shows_at_most_two_lobbies_per_host_and_keeps_everyone_elses(
    players: list[Client],
) -> None:
    real = create_game(players[1])
    time.sleep(0.002)  # created_at has millisecond resolution
    flood = []
    for _ in range(quotas.MAX_PUBLIC_LOBBIES):
        flood.append(create_game(players[0]))
        time.sleep(0.002)
    listed = open_game_ids(players[5])
    assert real in listed
    assert sum(1 for game_id in listed if game_id in flood) == quotas.LOBBIES_PER_HOST_LISTED


def test_the_open_list_shows_every_hosts_newest_lobby_before_anyones_second(players: list[Client]) -> None:
    first_a = create_game(players[0])
    time.sleep(0.002)
    second_a = create_game(players[0])
    time.sleep(0.002)
    only_b = create_game(players[1])
    time.sleep(0.002)
    third_a = create_game(players[0])
    assert open_game_ids(players[5]) == [third_a, only_b, second_a]
    assert first_a not in open_game_ids(players[5])


def test_joining_and_leaving_one_lobby_over_and_over_is_429_past_the_hourly_rate(
    players: list[Client],
) -> None:
    # Each join and leave tells the table (feed, webhooks, live): one player may not flood a host with them.
    host, flooder, other = players[:3]
    game_id = create_game(host)
    limit = quotas.SEAT_CHANGES_PER_GAME_HOUR.limit
    for n in range(limit):
        assert flooder.post(f"/games/{game_id}/{'leave' if n % 2 else 'join'}").status == 200
    refused = flooder.post(f"/games/{game_id}/join")
    assert_problem(refused, 429, "too_many_seat_changes")
    assert 0 < int(refused.headers["Retry-After"]) <= 3_600
    assert other.post(f"/games/{game_id}/join").status == 200  # counted per player
    assert flooder.post(f"/games/{create_game(players[3])}/join").status == 200  # and per game
