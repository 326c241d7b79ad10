"""Creating games, the open-games list, joining (public and private), leaving and starting."""

from __future__ import annotations

import time
from typing import Any

import pytest

from ..client import Client
from ..helpers import assert_problem, create_game, inbox, lobby, started, view
from ..stream import StreamFeed

UNKNOWN_GAME = "g_0123456789abcdef"


def open_game_ids(client: Client) -> list[str]:
    reply = client.get("/games", query={"status": "open"})
    assert reply.status == 200, reply.raw
    return [g["game_id"] for g in reply.body["games"]]


def inbox_ids(client: Client, feed: StreamFeed) -> list[str]:
    return [g["game_id"] for g in inbox(client, feed).body["games"]]


def membership(table: Any, client: Client, game_id: str) -> dict[str, Any] | None:
    item: dict[str, Any] | None = table.get_item(
        Key={"pk": f"PLAYER#{client.player_id}", "sk": f"GAME#{game_id}"}
    ).get("Item")
    return item


# Creating


def test_creating_a_game_answers_201_with_the_creator_seated_as_host(players: list[Client]) -> None:
    host = players[0]
    reply = host.post("/games", {})
    assert reply.status == 201, reply.raw
    game = reply.body
    assert game["game_id"].startswith("g_")
    assert game["phase"] == "lobby"
    assert game["version"] == 0
    assert game["host_id"] == host.player_id
    assert game["players"] == [
        {
            "player_id": host.player_id,
            "name": host.name,
            "score": 0,
            "hand_size": 0,
            "away": False,
            "vacation_until": None,
            "vacation_days_left": 7,
            "offered": False,
            "leaving": False,
            "timed_out": False,
            "departed": False,
        }
    ]
    assert game["settings"] == {
        "rules": "classic",
        "decks": ["base"],
        "max_players": 6,
        "target_score": 30,
        "move_timeout_hours": 48,
        "timeout_policy": "autoplay",
        "title": None,
        "vacation_days": 7,
        "table_talk": "between_rounds",
    }
    assert game["your_turn"] is False  # a lobby of one cannot start
    assert game["visibility"] == "public"
    assert game["you"] == {
        "player_id": host.player_id,
        "hand": [],
        "submitted": [],
        "votes": [],
        "owes": None,
        "away": False,
    }
    assert game["invite_code"]
    assert game["round"] is None
    assert game["winners"] == []
    assert reply.headers["ETag"]


def test_a_game_keeps_the_settings_it_was_created_with(players: list[Client]) -> None:
    settings = {
        "rules": "odyssey",
        "decks": ["odyssey", "base"],
        "max_players": 9,
        "target_score": 40,
        "visibility": "private",
    }
    game = players[0].post("/games", settings).body
    assert game["settings"]["rules"] == "odyssey"
    chosen = ("rules", "decks", "max_players", "target_score")
    assert game["settings"] == {
        **{key: settings[key] for key in chosen},
        "move_timeout_hours": 48,
        "timeout_policy": "autoplay",
        "title": None,
        "vacation_days": 7,
        "table_talk": "between_rounds",
    }
    assert game["visibility"] == "private"
    assert view(players[0], game["game_id"])["settings"] == game["settings"]


def test_odyssey_seats_twelve_by_default(players: list[Client]) -> None:
    assert players[0].post("/games", {"rules": "odyssey"}).body["settings"]["max_players"] == 12


@pytest.mark.parametrize(
    ("settings", "code"),
    [
        ({"max_players": 7}, "validation_error"),  # classic seats 6: its schema says so
        # Beyond every ruleset's seats: the schema's range says so before the rules are asked.
        ({"max_players": 2}, "validation_error"),
        ({"rules": "odyssey", "max_players": 13}, "validation_error"),
        ({"decks": ["nope"]}, "unknown_deck"),
        ({"decks": []}, "validation_error"),  # the schema asks for at least one
        ({"decks": ["base", "base"]}, "invalid_decks"),
        ({"target_score": 0}, "validation_error"),
        ({"target_score": 201}, "validation_error"),
    ],
)
def test_impossible_settings_are_refused_with_422_and_the_rule_code(
    players: list[Client], settings: dict[str, Any], code: str
) -> None:
    assert_problem(players[0].post("/games", settings), 422, code)


@pytest.mark.parametrize(
    "settings",
    [{"rules": "chess"}, {"visibility": "secret"}, {"max_players": "six"}, {"colour": "blue"}],
)
def test_settings_outside_the_schema_are_refused_with_422_validation_error(
    players: list[Client], settings: dict[str, Any]
) -> None:
    assert_problem(players[0].post("/games", settings), 422, "validation_error")


def test_creating_a_game_writes_the_hosts_membership(
    players: list[Client], table: Any, feed: StreamFeed
) -> None:
    game_id = create_game(players[0])
    assert membership(table, players[0], game_id) is not None
    assert inbox_ids(players[0], feed) == [game_id]


# The open-games list


def test_the_open_list_shows_public_lobbies_only(players: list[Client]) -> None:
    public = create_game(players[0])
    private = create_game(players[1], visibility="private")
    listed = players[2].get("/games", query={"status": "open"}).body["games"]
    assert [g["game_id"] for g in listed] == [public]
    assert private not in open_game_ids(players[1])
    [entry] = listed
    assert entry == {
        "game_id": public,
        "title": None,
        "rules": "classic",
        "host_id": players[0].player_id,
        "player_count": 1,
        "player_names": [players[0].name],
        "max_players": 6,
        "created_at": entry["created_at"],
    }


def test_the_open_list_names_a_lobby_by_its_title(players: list[Client]) -> None:
    titled = create_game(players[0], title="Friday night")
    [entry] = players[2].get("/games").body["games"]
    assert (entry["game_id"], entry["title"]) == (titled, "Friday night")


def test_the_open_list_defaults_to_open_games(players: list[Client]) -> None:
    game_id = create_game(players[0])
    reply = players[1].get("/games")
    assert reply.status == 200
    assert [g["game_id"] for g in reply.body["games"]] == [game_id]


def test_the_open_list_refuses_other_statuses(players: list[Client]) -> None:
    assert_problem(players[0].get("/games", query={"status": "finished"}), 422, "validation_error")


def test_the_open_list_follows_joins(players: list[Client]) -> None:
    game_id = lobby(players[:2])
    [entry] = players[5].get("/games").body["games"]
    assert entry["game_id"] == game_id
    assert entry["player_names"] == [players[0].name, players[1].name]
    assert entry["player_count"] == 2


def test_a_game_leaves_the_open_list_once_started(players: list[Client]) -> None:
    game_id = lobby(players[:3])
    assert open_game_ids(players[5]) == [game_id]
    assert players[0].post(f"/games/{game_id}/start").status == 200
    assert open_game_ids(players[5]) == []


def test_a_game_leaves_the_open_list_when_its_last_player_leaves(players: list[Client]) -> None:
    game_id = create_game(players[0])
    assert players[0].post(f"/games/{game_id}/leave").status == 200
    assert open_game_ids(players[5]) == []
    assert view(players[5], game_id)["phase"] == "finished"


def test_the_open_list_shows_the_newest_lobby_first(players: list[Client]) -> None:
    ids = []
    for i in range(3):
        ids.append(create_game(players[i]))
        time.sleep(0.002)  # created_at has millisecond resolution
    assert open_game_ids(players[5]) == ids[::-1]


def test_a_full_lobby_is_not_listed_as_open(players: list[Client]) -> None:
    full = create_game(players[0], max_players=3)
    for guest in players[1:3]:
        assert guest.post(f"/games/{full}/join").status == 200
    roomy = create_game(players[3])
    assert open_game_ids(players[5]) == [roomy]
    assert players[2].post(f"/games/{full}/leave").status == 200
    assert set(open_game_ids(players[5])) == {full, roomy}


# Joining


def test_joining_a_public_game_seats_you_after_the_others(
    players: list[Client], table: Any, feed: StreamFeed
) -> None:
    game_id = create_game(players[0])
    reply = players[1].post(f"/games/{game_id}/join")
    assert reply.status == 200, reply.raw
    assert [p["player_id"] for p in reply.body["players"]] == [players[0].player_id, players[1].player_id]
    assert reply.body["you"]["player_id"] == players[1].player_id
    assert reply.body["version"] == 1
    assert membership(table, players[1], game_id) is not None
    assert inbox_ids(players[1], feed) == [game_id]


def test_joining_with_an_empty_body_works_like_no_body(players: list[Client]) -> None:
    game_id = create_game(players[0])
    reply = players[1].post(f"/games/{game_id}/join", {})
    assert reply.status == 200, reply.raw
    seated = [players[0].player_id, players[1].player_id]
    assert [p["player_id"] for p in reply.body["players"]] == seated
    assert [p["player_id"] for p in view(players[0], game_id)["players"]] == seated


def test_joining_twice_is_409_already_joined(players: list[Client]) -> None:
    game_id = lobby(players[:2])
    assert_problem(players[1].post(f"/games/{game_id}/join"), 409, "already_joined")
    assert_problem(players[0].post(f"/games/{game_id}/join"), 409, "already_joined")


def test_joining_a_full_table_is_409_game_full(players: list[Client], table: Any, feed: StreamFeed) -> None:
    game_id = lobby(players[:3], max_players=3)
    assert_problem(players[3].post(f"/games/{game_id}/join"), 409, "game_full")
    assert membership(table, players[3], game_id) is None
    assert inbox_ids(players[3], feed) == []


def test_joining_a_started_game_is_409_game_started(players: list[Client]) -> None:
    game_id = started(players[:3])
    assert_problem(players[3].post(f"/games/{game_id}/join"), 409, "game_started")


@pytest.mark.parametrize("game_id", [UNKNOWN_GAME, "not-a-game-id", "g_ABCDEF0123456789"])
def test_joining_an_unknown_game_is_404(players: list[Client], game_id: str) -> None:
    assert_problem(players[0].post(f"/games/{game_id}/join"), 404, "game_not_found")


# Private games


def test_a_private_game_needs_its_invite_code(players: list[Client], table: Any) -> None:
    game_id = create_game(players[0], visibility="private")
    join = f"/games/{game_id}/join"
    assert_problem(players[1].post(join), 403, "invite_required")
    assert_problem(players[1].post(join, {"invite_code": None}), 403, "invite_required")
    assert_problem(players[1].post(join, {"invite_code": "guess"}), 403, "bad_invite_code")
    assert membership(table, players[1], game_id) is None
    invite = view(players[0], game_id)["invite_code"]
    reply = players[1].post(f"/games/{game_id}/join", {"invite_code": invite})
    assert reply.status == 200, reply.raw
    assert reply.body["invite_code"] == invite
    assert membership(table, players[1], game_id) is not None


def test_a_private_game_is_hidden_from_non_members(players: list[Client]) -> None:
    game_id = create_game(players[0], visibility="private")
    assert_problem(players[1].get(f"/games/{game_id}"), 403, "not_a_member")
    assert_problem(players[1].get(f"/games/{game_id}/rounds"), 403, "not_a_member")


def test_an_invite_code_is_not_needed_by_a_public_game(players: list[Client]) -> None:
    game_id = create_game(players[0])
    reply = players[1].post(f"/games/{game_id}/join", {"invite_code": "anything"})
    assert reply.status == 200, reply.raw
    seated = [players[0].player_id, players[1].player_id]
    assert [p["player_id"] for p in reply.body["players"]] == seated
    assert [p["player_id"] for p in view(players[0], game_id)["players"]] == seated


# Leaving


def test_leaving_a_lobby_frees_the_seat_and_removes_the_membership(
    players: list[Client], table: Any, feed: StreamFeed
) -> None:
    game_id = lobby(players[:3])
    reply = players[1].post(f"/games/{game_id}/leave")
    assert reply.status == 200, reply.raw
    assert [p["player_id"] for p in reply.body["players"]] == [players[0].player_id, players[2].player_id]
    assert reply.body["you"] is None  # a public game: the leaver now sees it as a spectator
    assert membership(table, players[1], game_id) is None
    assert inbox_ids(players[1], feed) == []
    assert players[1].post(f"/games/{game_id}/join").status == 200


def test_when_the_host_leaves_the_next_seat_hosts(players: list[Client]) -> None:
    game_id = lobby(players[:3])
    reply = players[0].post(f"/games/{game_id}/leave")
    assert reply.body["host_id"] == players[1].player_id
    assert players[1].post(f"/games/{game_id}/start").status == 409  # two players left
    assert players[3].post(f"/games/{game_id}/join").status == 200
    assert players[1].post(f"/games/{game_id}/start").status == 200


def test_leaving_a_started_game_is_409_game_started(players: list[Client], table: Any) -> None:
    game_id = started(players[:3])
    assert_problem(players[1].post(f"/games/{game_id}/leave"), 409, "game_started")
    assert membership(table, players[1], game_id) is not None


def test_leaving_a_game_you_are_not_in_is_403_not_a_player(players: list[Client]) -> None:
    game_id = lobby(players[:2])
    assert_problem(players[5].post(f"/games/{game_id}/leave"), 403, "not_a_player")


def test_leaving_a_private_game_hides_it_again(players: list[Client]) -> None:
    game_id = lobby(players[:2], visibility="private")
    reply = players[1].post(f"/games/{game_id}/leave")
    assert reply.status == 200, reply.raw
    assert_problem(players[1].get(f"/games/{game_id}"), 403, "not_a_member")


# Starting


@pytest.mark.parametrize(("seats", "hand"), [(3, 7), (4, 6), (6, 6)])
def test_starting_deals_every_player_a_hand_and_names_a_storyteller(
    players: list[Client], seats: int, hand: int
) -> None:
    game_id = lobby(players[:seats])
    reply = players[0].post(f"/games/{game_id}/start")
    assert reply.status == 200, reply.raw
    game = reply.body
    assert game["phase"] == "storytelling"
    assert {p["hand_size"] for p in game["players"]} == {hand}
    assert len(game["you"]["hand"]) == hand
    assert game["round"]["number"] == 1
    assert game["round"]["waiting_for"] == [game["round"]["storyteller_id"]]
    assert game["round"]["storyteller_id"] in {c.player_id for c in players[:seats]}
    hands = [set(view(c, game_id)["you"]["hand"][i]["card_id"] for i in range(hand)) for c in players[:seats]]
    assert len(set().union(*hands)) == seats * hand  # nobody shares a card


def test_only_the_host_may_start_403_not_host(players: list[Client]) -> None:
    game_id = lobby(players[:3])
    assert_problem(players[1].post(f"/games/{game_id}/start"), 403, "not_host")
    assert view(players[0], game_id)["phase"] == "lobby"


def test_a_non_member_may_not_start_403_not_a_player(players: list[Client]) -> None:
    game_id = lobby(players[:3])
    assert_problem(players[5].post(f"/games/{game_id}/start"), 403, "not_a_player")


def test_starting_with_fewer_than_three_is_409_not_enough_players(players: list[Client]) -> None:
    game_id = lobby(players[:2])
    assert_problem(players[0].post(f"/games/{game_id}/start"), 409, "not_enough_players")


def test_starting_twice_is_409_game_started(players: list[Client]) -> None:
    game_id = started(players[:3])
    assert_problem(players[0].post(f"/games/{game_id}/start"), 409, "game_started")


def test_a_game_everyone_left_is_finished_and_says_why(players: list[Client]) -> None:
    host = players[0]
    game_id = create_game(host)
    reply = host.post(f"/games/{game_id}/leave")
    assert reply.status == 200, reply.raw
    assert reply.body["phase"] == "finished"
    assert reply.body["end_reason"] == "everyone_left"
    assert reply.body["winners"] == []


def test_a_game_takes_its_move_timeout_and_policy_and_shows_them(players: list[Client]) -> None:
    host = players[0]
    game = host.post("/games", {"move_timeout_hours": 72, "timeout_policy": "wait"})
    assert game.status == 201
    assert game.body["settings"]["move_timeout_hours"] == 72
    assert game.body["settings"]["timeout_policy"] == "wait"


@pytest.mark.parametrize("hours", [0, 337])
def test_a_move_timeout_out_of_range_is_refused_with_a_stable_code(players: list[Client], hours: int) -> None:
    host = players[0]
    refused = host.post("/games", {"move_timeout_hours": hours})
    assert refused.status == 422
    assert refused.body["code"] == "validation_error"
    # The body is one schema per ruleset, so the location names the branch: body, CreateClassicGame, ...
    assert refused.body["errors"][0]["loc"][0] == "body"
    assert refused.body["errors"][0]["loc"][-1] == "move_timeout_hours"
