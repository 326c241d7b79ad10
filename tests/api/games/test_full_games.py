"""Whole games played through `lambda_handler` alone, by bots that only see their JSON views."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import pytest

from ..client import Client
from ..helpers import assert_problem, inbox, rounds, started, view
from ..json_bot import play_to_the_end
from ..stream import StreamFeed

DECK_SIZE = 84


def hand_size(seats: int) -> int:
    return 7 if seats == 3 else 6


def cards_per_round(seats: int) -> int:
    return 5 if seats == 3 else seats  # with three players, the two guessers put forward two cards each


GAMES = [
    pytest.param(3, "classic", None, 1, id="3-classic-to-30"),
    pytest.param(4, "classic", None, 2, id="4-classic-to-30"),
    pytest.param(6, "classic", None, 3, id="6-classic-to-30"),
    pytest.param(7, "odyssey", 20, 4, id="7-odyssey-to-20"),
    pytest.param(12, "odyssey", 15, 5, id="12-odyssey-to-15"),
]


def unsigned(result: dict[str, Any]) -> dict[str, Any]:
    """A round's reveal with each card's link cut to its object (the query holds the signature)."""
    cards = [{**card, "image_url": card["image_url"].split("?", 1)[0]} for card in result["cards"]]
    return {**result, "cards": cards}


@pytest.mark.parametrize(("seats", "rules", "target", "seed"), GAMES)
def test_a_game_played_to_the_end_scores_every_round_and_crowns_the_top_scorers(
    players: list[Client], feed: StreamFeed, seats: int, rules: str, target: int | None, seed: int
) -> None:
    table = players[:seats]
    ids = [c.player_id for c in table]
    settings: dict[str, Any] = {"rules": rules}
    if target is not None:
        settings["target_score"] = target
    game_id = started(table, **settings)

    final = play_to_the_end(table, game_id, seed=seed)

    assert final["phase"] == "finished"
    assert final["round"] is None
    scores = {p["player_id"]: p["score"] for p in final["players"]}
    top = max(scores.values())
    assert sorted(final["winners"]) == sorted(pid for pid, score in scores.items() if score == top)

    history = rounds(table[0], feed, game_id).body["rounds"]
    assert [r["number"] for r in history] == list(range(1, len(history) + 1))
    # Card links are signed per time window: two reads either side of a window's edge differ in signature.
    assert unsigned(final["last_round"]) == unsigned(history[-1])
    totals: Counter[str] = Counter()
    for result in history:
        assert set(result["points"]) == set(ids)
        totals.update(result["points"])
        check_round(result, ids, rules)
    assert {pid: totals[pid] for pid in ids} == scores

    goal = target or 30
    if rules == "odyssey":
        assert top >= goal  # Odyssey reshuffles the discard, so only the score ends it
    else:
        pile = DECK_SIZE - seats * hand_size(seats)
        assert top >= goal or len(history) == math.ceil(pile / cards_per_round(seats))


def check_round(result: dict[str, Any], ids: list[str], rules: str) -> None:
    """One reveal is self-consistent: who played what, who voted for what."""
    seats = len(ids)
    teller = result["storyteller_id"]
    owners = Counter(card["owner_id"] for card in result["cards"])
    assert len(result["cards"]) == cards_per_round(seats)
    assert owners == {pid: 1 if pid == teller or seats > 3 else 2 for pid in ids}
    [storyteller_card] = [c for c in result["cards"] if c["card_id"] == result["storyteller_card"]]
    assert storyteller_card["owner_id"] == teller
    votes = Counter(voter for card in result["cards"] for voter in card["voter_ids"])
    assert teller not in votes
    most = 2 if rules == "odyssey" and seats >= 7 else 1
    assert set(votes) == set(ids) - {teller}
    assert all(1 <= n <= most for n in votes.values())
    for card in result["cards"]:
        assert card["owner_id"] not in card["voter_ids"]


def test_a_finished_game_refuses_further_moves_and_leaves_everyone_idle(
    players: list[Client], feed: StreamFeed
) -> None:
    table = players[:3]
    game_id = started(table, target_score=3)
    play_to_the_end(table, game_id, seed=7)
    for path, body in [
        ("clue", {"card_id": "base-001", "clue": "home"}),
        ("submissions", {"card_ids": ["base-001", "base-002"]}),
        ("votes", {"card_ids": ["base-001"]}),
        ("start", None),
        ("leave", None),
        ("join", None),
    ]:
        assert_problem(table[1].post(f"/games/{game_id}/{path}", body), 409, "game_finished")
    for client in table:
        assert inbox(client, feed).body["games"] == []
        [entry] = inbox(client, feed, status="finished").body["games"]
        assert entry["phase"] == "finished"
        assert entry["your_turn"] is False
        assert entry["waiting_for"] == []
        assert entry["deadline"] is None


def test_a_spectator_can_replay_a_finished_public_game(players: list[Client], feed: StreamFeed) -> None:
    table = players[:3]
    game_id = started(table, target_score=5)
    final = play_to_the_end(table, game_id, seed=11)
    outsider = players[11]
    seen = view(outsider, game_id)
    assert seen["you"] is None
    assert seen["winners"] == final["winners"]
    replay = rounds(outsider, feed, game_id).body
    assert replay["rounds"]
    assert replay == table[0].get(f"/games/{game_id}/rounds").body


def test_finished_games_leave_the_inbox_for_the_finished_list(
    players: list[Client], feed: StreamFeed
) -> None:
    done = started(players[:3], target_score=3)
    play_to_the_end(players[:3], done, seed=3)
    live = started(players[:3])
    assert [g["game_id"] for g in inbox(players[0], feed).body["games"]] == [live]
    finished = inbox(players[0], feed, status="finished").body
    assert [g["game_id"] for g in finished["games"]] == [done]
    assert finished["games"][0]["phase"] == "finished"
    assert finished["games"][0]["end_reason"] == view(players[0], done)["end_reason"] is not None
    assert finished["games"][0]["your_turn"] is False
    assert finished["next_cursor"] is None
