"""The bots' move choice and summary arithmetic, without any server."""

from __future__ import annotations

import random
from typing import Any

from dixit_bots.runner import percentile
from dixit_bots.strategy import choose


def view(
    phase: str, *, me: str = "p1", teller: str = "p0", waiting: tuple[str, ...] = ("p1",)
) -> dict[str, Any]:
    move = {"storytelling": "clue", "submitting": "submit", "voting": "vote"}[phase]
    # What the API says a 4-player classic game owes: one card for every move.
    owes = (
        {"move": move, "count": 1, "counts": [1], "deadline": "2026-12-02T09:30:00Z"}
        if me in waiting
        else None
    )
    return {
        "phase": phase,
        "settings": {"rules": "classic"},
        "players": [{"player_id": f"p{i}"} for i in range(4)],
        "round": {
            "storyteller_id": teller,
            "waiting_for": list(waiting),
            "table": [{"card_id": c} for c in ("a", "b", "c", "d")],
        },
        "you": {
            "player_id": me,
            "hand": [{"card_id": c} for c in ("h1", "h2", "h3")],
            "submitted": ["b"],
            "owes": owes,
        },
    }


def test_a_bot_not_waited_on_makes_no_move() -> None:
    assert choose(view("submitting", waiting=("p2",)), random.Random(1)) is None


def test_the_storyteller_gives_a_clue_with_a_card_from_its_hand() -> None:
    route, body = choose(view("storytelling", me="p0", waiting=("p0",)), random.Random(1)) or ("", {})
    assert route == "clue"
    assert body["card_id"] in {"h1", "h2", "h3"}
    assert body["clue"]


def test_a_guesser_submits_one_card_from_its_hand_at_four_players() -> None:
    route, body = choose(view("submitting"), random.Random(2)) or ("", {})
    assert route == "submissions"
    assert len(body["card_ids"]) == 1
    assert set(body["card_ids"]) <= {"h1", "h2", "h3"}


def test_a_guesser_votes_only_for_table_cards_it_did_not_play_even_when_it_played_two() -> None:
    # Four players: one card played, one vote. Three players: two cards played, one or two votes.
    for submitted, counts in [(["b"], [1]), (["b", "c"], [1, 2])]:
        voting = view("voting")
        voting["you"]["submitted"] = submitted
        voting["you"]["owes"] = {"move": "vote", "count": None, "counts": counts, "deadline": None}
        for seed in range(30):
            route, body = choose(voting, random.Random(seed)) or ("", {})
            assert route == "votes"
            assert len(body["card_ids"]) in counts
            assert len(set(body["card_ids"])) == len(body["card_ids"])
            assert set(body["card_ids"]) <= {"a", "b", "c", "d"} - set(submitted), (submitted, body)


def test_percentiles_use_the_nearest_rank() -> None:
    values = [float(n) for n in range(1, 101)]
    assert percentile(values, 0.5) == 50.0
    assert percentile(values, 0.99) == 99.0
    assert percentile([], 0.5) == 0.0
