"""The game view says whose move it is, what it takes and until when, and names everyone it mentions."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from ..client import Client
from ..helpers import (
    assert_problem,
    foreign_card,
    give_clue,
    hand,
    inbox,
    rounds,
    started,
    storyteller,
    submit_all,
    view,
)
from ..json_bot import play_to_the_end
from ..stream import StreamFeed

WAITING_KEYS = {"player_id", "name", "move", "deadline", "nudge_after"}


def moment(iso: str) -> datetime:
    assert iso.endswith("Z"), iso  # one format for every deadline: ISO-8601 UTC
    return datetime.fromisoformat(iso)


def cards_in(body: Any) -> set[str]:
    return {part for part in json.dumps(body).split('"') if part.startswith("base-")}


def test_the_storyteller_owes_a_clue_and_everyone_else_waits_on_them_by_name(players: list[Client]) -> None:
    seats = players[:4]
    game_id = started(seats)
    teller = storyteller(seats, game_id)
    mine = view(teller, game_id)
    assert mine["your_turn"] is True
    owes = mine["you"]["owes"]
    assert (owes["move"], owes["count"], owes["counts"]) == ("clue", 1, [1])
    rnd = mine["round"]
    assert rnd["storyteller_name"] == teller.name
    fair = (moment(owes["deadline"]) - timedelta(hours=36)).strftime("%Y-%m-%dT%H:%M:%SZ")  # 12 of 48 h in
    assert rnd["waiting"] == [
        {
            "player_id": teller.player_id,
            "name": teller.name,
            "move": "clue",
            "deadline": owes["deadline"],
            "nudge_after": fair,
        }
    ]
    assert rnd["deadline"] == owes["deadline"]
    timeout = moment(owes["deadline"]) - datetime.fromisoformat(mine["updated_at"])
    assert abs(timeout - timedelta(hours=48)) <= timedelta(seconds=1)
    for other in seats:
        if other is not teller:
            theirs = view(other, game_id)
            assert theirs["your_turn"] is False
            assert theirs["you"]["owes"] is None
            assert theirs["round"]["waiting"] == rnd["waiting"]


def test_submitters_owe_as_many_cards_as_the_round_takes(players: list[Client]) -> None:
    for seats, count in ((players[:3], 2), (players[3:7], 1)):
        game_id = started(seats)
        teller = give_clue(seats, game_id)
        for client in seats:
            body = view(client, game_id)
            assert body["round"]["cards_to_submit"] == count
            assert body["round"]["votes_allowed"] == [1]
            owes = body["you"]["owes"]
            if client is teller:
                assert owes is None
            else:
                assert owes["move"] == "submit"
                assert owes["count"] == count
                assert owes["counts"] == [count]
        waiting = view(teller, game_id)["round"]["waiting"]
        assert [(w["player_id"], w["name"], w["move"]) for w in waiting] == [
            (c.player_id, c.name, "submit") for c in seats if c is not teller
        ]


def test_a_large_odyssey_table_lets_voters_choose_one_or_two_votes(players: list[Client]) -> None:
    seats = players[:7]
    game_id = started(seats, rules="odyssey")
    teller = give_clue(seats, game_id)
    submit_all(seats, game_id)
    voter = next(c for c in seats if c is not teller)
    body = view(voter, game_id)
    assert body["round"]["votes_allowed"] == [1, 2]
    assert body["you"]["owes"]["move"] == "vote"
    assert body["you"]["owes"]["counts"] == [1, 2]
    assert body["you"]["owes"]["count"] is None  # a choice: see counts


def test_owes_and_waiting_never_name_a_card(players: list[Client]) -> None:
    seats = players[:3]
    game_id = started(seats)
    for step in ("clue", "submit", "vote"):
        for client in seats:
            body = view(client, game_id)
            you, rnd = body["you"], body["round"]
            assert cards_in(you["owes"]) == set()
            assert cards_in(rnd["waiting"]) == set()
            assert all(set(w) == WAITING_KEYS for w in rnd["waiting"])
            if you["owes"] is not None:
                assert set(you["owes"]) == {"move", "count", "counts", "deadline"}
        if step == "clue":
            give_clue(seats, game_id)
        elif step == "submit":
            submit_all(seats, game_id)


def test_the_reveal_and_the_replay_name_the_storyteller_the_owners_and_the_voters(
    players: list[Client], feed: StreamFeed
) -> None:
    seats = players[:3]
    game_id = started(seats)
    teller = give_clue(seats, game_id)
    submit_all(seats, game_id)
    for client in seats:
        if client is not teller:
            assert (
                client.post(f"/games/{game_id}/votes", {"card_ids": [foreign_card(client, game_id)]}).status
                == 200
            )
    names = {c.player_id: c.name for c in seats}
    reveal = view(seats[0], game_id)["last_round"]
    assert reveal["storyteller_name"] == teller.name
    for card in reveal["cards"]:
        assert card["owner_name"] == names[card["owner_id"]]
        assert card["voters"] == [{"player_id": v, "name": names[v]} for v in card["voter_ids"]]
    assert sum(len(card["voters"]) for card in reveal["cards"]) == 2
    assert rounds(seats[1], feed, game_id).body["rounds"] == [reveal]


def test_seats_and_you_say_who_is_away(players: list[Client]) -> None:
    seats = players[:3]
    game_id = started(seats)
    body = view(seats[0], game_id)
    assert [p["away"] for p in body["players"]] == [False, False, False]
    assert body["you"]["away"] is False


def test_a_finished_game_owes_nothing_and_says_why_it_ended(players: list[Client]) -> None:
    seats = players[:3]
    game_id = started(seats, target_score=3)
    final = play_to_the_end(seats, game_id, seed=5)
    assert final["end_reason"] == "target_score"
    assert max(p["score"] for p in final["players"]) >= 3
    for client in seats:
        body = view(client, game_id)
        assert body["end_reason"] == "target_score"
        assert body["your_turn"] is False
        assert body["you"]["owes"] is None
        assert body["round"] is None or body["round"]["waiting"] == []


# The inbox


def test_inbox_entries_say_your_turn_your_deadline_and_who_is_waited_on_by_name(
    players: list[Client], feed: StreamFeed
) -> None:
    seats = players[:4]
    game_id = started(seats)
    teller = give_clue(seats, game_id)
    for client in seats:
        [entry] = inbox(client, feed).body["games"]
        game = view(client, game_id)
        assert entry["your_turn"] is game["your_turn"]
        owes = game["you"]["owes"]
        assert entry["deadline"] == (None if owes is None else owes["deadline"])
        # The game's own list adds when a nudge is fair; the rest is the same.
        assert entry["waiting"] == [
            {k: v for k, v in w.items() if k != "nudge_after"} for w in game["round"]["waiting"]
        ]
        assert entry["waiting_for"] == [w["player_id"] for w in entry["waiting"]]
        assert teller.player_id not in entry["waiting_for"]


def test_the_inbox_follows_each_move_once_the_stream_has_been_delivered(
    players: list[Client], feed: StreamFeed
) -> None:
    seats = players[:3]
    game_id = started(seats)
    teller = give_clue(seats, game_id)
    submitter = next(c for c in seats if c is not teller)
    cards = hand(submitter, game_id)[:2]
    assert submitter.post(f"/games/{game_id}/submissions", {"card_ids": cards}).status == 200
    [entry] = inbox(teller, feed).body["games"]
    others = [c for c in seats if c not in (teller, submitter)]
    assert [w["name"] for w in entry["waiting"]] == [c.name for c in others]
    assert entry["version"] == view(teller, game_id)["version"]
    [mine] = inbox(submitter, feed).body["games"]
    assert mine["your_turn"] is False
    assert mine["deadline"] is None


def test_a_bad_finished_cursor_is_a_422_problem(players: list[Client]) -> None:
    reply = players[0].get("/players/me/games", query={"status": "finished", "cursor": "not-a-cursor!"})
    assert_problem(reply, 422, "bad_cursor")
