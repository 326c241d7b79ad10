"""A stranger to a private game gets the answer a view gives them, whatever the game is doing (#25)."""

from __future__ import annotations

import pytest

from tests.api.client import Client

from ..helpers import assert_problem, create_game, lobby, started

MOVES = [
    ("clue", {"card_id": "base-001", "clue": "a clue"}),
    ("submissions", {"card_ids": ["base-001"]}),
    ("votes", {"card_ids": ["base-001"]}),
    ("start", None),
    ("leave", None),
]


@pytest.mark.parametrize(("path", "body"), MOVES)
def test_a_non_member_of_a_private_game_gets_403_not_a_member_in_the_lobby_and_in_play(
    players: list[Client], path: str, body: object
) -> None:
    waiting = lobby(players[:2], visibility="private")
    playing = started(players[:3], visibility="private")
    for game_id in (waiting, playing):
        assert_problem(players[5].post(f"/games/{game_id}/{path}", body), 403, "not_a_member")


@pytest.mark.parametrize(("path", "body"), MOVES)
def test_a_non_member_of_a_private_game_gets_403_whatever_if_match_says(
    players: list[Client], path: str, body: object
) -> None:
    game_id = started(players[:3], visibility="private")
    for tag in ('"0-0000000000000000"', '"999-ffffffffffffffff"', "*"):
        reply = players[5].post(f"/games/{game_id}/{path}", body, headers={"If-Match": tag})
        assert_problem(reply, 403, "not_a_member")


def test_joining_a_started_private_game_without_its_code_says_nothing_of_the_phase(
    players: list[Client],
) -> None:
    game_id = started(players[:3], visibility="private")
    assert_problem(players[5].post(f"/games/{game_id}/join"), 403, "invite_required")
    reply = players[5].post(f"/games/{game_id}/join", {"invite_code": "guess"}, headers={"If-Match": '"7-x"'})
    assert_problem(reply, 403, "bad_invite_code")


@pytest.mark.parametrize("header", ["garbage", "1-abc", '"1-abc', '"1-abc", garbage', ","])
def test_a_malformed_if_match_is_400_malformed_if_match(players: list[Client], header: str) -> None:
    game_id = create_game(players[0])
    reply = players[0].post(f"/games/{game_id}/start", headers={"If-Match": header})
    assert_problem(reply, 400, "malformed_if_match")


@pytest.mark.parametrize("header", ['"0-0000000000000000"', "", "*"])
def test_a_move_with_if_match_on_a_game_that_does_not_exist_is_404(
    players: list[Client], header: str
) -> None:
    reply = players[0].post(
        "/games/g_0123456789abcdef/submissions", {"card_ids": ["base-001"]}, headers={"If-Match": header}
    )
    assert_problem(reply, 404, "game_not_found")


# Invites: the host rotates the code; a player who left needs the fresh one


def test_the_host_rotates_the_invite_code_and_the_old_one_seats_nobody(players: list[Client]) -> None:
    host, guest = players[0], players[1]
    game_id = create_game(host, visibility="private")
    old = host.get(f"/games/{game_id}").body["invite_code"]
    before = host.get(f"/games/{game_id}").headers["ETag"]
    reply = host.post(f"/games/{game_id}/invite")
    assert reply.status == 200, reply.raw
    fresh = reply.body["invite_code"]
    assert fresh != old
    assert reply.headers["ETag"] != before
    assert_problem(guest.post(f"/games/{game_id}/join", {"invite_code": old}), 403, "bad_invite_code")
    assert guest.post(f"/games/{game_id}/join", {"invite_code": fresh}).status == 200


def test_only_the_host_may_rotate_the_invite_code(players: list[Client]) -> None:
    game_id = lobby(players[:2], visibility="private")
    assert_problem(players[1].post(f"/games/{game_id}/invite"), 403, "not_host")
    assert_problem(players[5].post(f"/games/{game_id}/invite"), 403, "not_a_member")


def test_a_player_who_left_a_private_game_needs_a_fresh_invite_to_come_back(players: list[Client]) -> None:
    host, guest = players[0], players[1]
    game_id = lobby([host, guest], visibility="private")
    code = host.get(f"/games/{game_id}").body["invite_code"]
    assert guest.post(f"/games/{game_id}/leave").status == 200
    assert_problem(guest.post(f"/games/{game_id}/join", {"invite_code": code}), 403, "invite_revoked")
    assert players[2].post(f"/games/{game_id}/join", {"invite_code": code}).status == 200
    fresh = host.post(f"/games/{game_id}/invite").body["invite_code"]
    assert guest.post(f"/games/{game_id}/join", {"invite_code": fresh}).status == 200
