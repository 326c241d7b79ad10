"""Reactions over HTTP: one per player per revealed round or message, from a fixed set, when the table
may talk; counted for everyone who may read the table."""

from __future__ import annotations

from tests.support.clock import Clock

from ..client import Client
from ..helpers import assert_problem, give_clue, lobby, started, submit_all
from ..json_bot import play_to_the_end
from .talking import say


def reactions(client: Client, game_id: str) -> list[dict[str, object]]:
    reply = client.get(f"/games/{game_id}/reactions")
    assert reply.status == 200, reply.raw
    found: list[dict[str, object]] = reply.body["reactions"]
    return found


def test_players_react_to_a_message_once_each_and_may_change_or_take_it_back(
    players: list[Client],
    clock: Clock,
) -> None:
    ada, bob, cy = players[:3]
    game_id = lobby([ada, bob, cy])
    said = str(say(ada, game_id, "Who brought snacks?")["message_id"])
    path = f"/games/{game_id}/reactions/{said}"
    assert bob.put(path, {"reaction": "laugh"}).body == {"target": said, "reaction": "laugh"}
    assert cy.put(path, {"reaction": "laugh"}).status == 200
    assert bob.put(path, {"reaction": "wow"}).status == 200  # replaces Bob's
    assert reactions(cy, game_id) == [{"target": said, "counts": {"laugh": 1, "wow": 1}, "yours": "laugh"}]
    assert bob.delete(path).status == 204
    assert bob.delete(path).status == 204  # nothing left to take back: the same end
    assert reactions(bob, game_id) == [{"target": said, "counts": {"laugh": 1}, "yours": None}]


def test_a_round_is_reacted_to_once_revealed_and_an_unknown_target_or_reaction_is_refused(
    players: list[Client],
    clock: Clock,
) -> None:
    clients = players[:3]
    game_id = started(clients, visibility="private")
    assert_problem(
        clients[0].put(f"/games/{game_id}/reactions/round-1", {"reaction": "wow"}), 409, "round_not_revealed"
    )
    missing = f"/games/{game_id}/reactions/m_1796040000000abcdef01"
    assert_problem(clients[0].put(missing, {"reaction": "wow"}), 404, "reaction_target_not_found")
    assert_problem(
        clients[0].put(f"/games/{game_id}/reactions/nonsense", {"reaction": "wow"}),
        404,
        "reaction_target_not_found",
    )
    assert_problem(
        clients[0].put(f"/games/{game_id}/reactions/round-1", {"reaction": "angry"}), 422, "validation_error"
    )
    give_clue(clients, game_id)
    submit_all(clients, game_id)
    # Votes are being cast: the table is quiet, reactions too.
    assert_problem(
        clients[0].put(f"/games/{game_id}/reactions/round-1", {"reaction": "wow"}), 409, "table_talk_closed"
    )
    stranger = players[5]
    assert_problem(stranger.get(f"/games/{game_id}/reactions"), 403, "not_a_member")
    assert_problem(
        stranger.put(f"/games/{game_id}/reactions/round-1", {"reaction": "wow"}), 403, "not_a_member"
    )


def test_after_the_reveal_the_round_takes_reactions(players: list[Client], clock: Clock) -> None:
    clients = players[:3]
    game_id = started(clients, target_score=1)
    play_to_the_end(clients, game_id, seed=3)
    assert clients[1].put(f"/games/{game_id}/reactions/round-1", {"reaction": "clever"}).status == 200
    assert reactions(clients[2], game_id) == [{"target": "round-1", "counts": {"clever": 1}, "yours": None}]


def test_one_player_may_not_flood_a_table_with_reactions(players: list[Client], clock: Clock) -> None:
    ada, bob, cy = players[:3]
    game_id = lobby([ada, bob, cy])
    said = str(say(ada, game_id, "react away")["message_id"])
    for n in range(30):
        reply = bob.put(f"/games/{game_id}/reactions/{said}", {"reaction": "laugh" if n % 2 else "wow"})
        assert reply.status == 200, reply.raw
    flooded = bob.put(f"/games/{game_id}/reactions/{said}", {"reaction": "love"})
    assert_problem(flooded, 429, "too_many_reactions")
    assert flooded.headers["Retry-After"] == "55"
