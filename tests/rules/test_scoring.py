"""Scoring tables worked out by hand, first on `score_round` directly, then through whole engine rounds."""

from __future__ import annotations

import pytest

from dixit.errors import InvalidMoveError
from dixit.scoring import is_large_odyssey_table, score_round
from dixit.settings import Ruleset, Settings

from .helpers import STORYTELLER, cast_votes, give_clue, others, seated_game, storyteller, submit_all

CLASSIC = Ruleset.CLASSIC
ODYSSEY = Ruleset.ODYSSEY


def score(rules: Ruleset, votes: dict[str, list[str]], cards: dict[str, list[str]]) -> dict[str, int]:
    """Score a round whose storyteller is "st" with card "S"; `cards` are the others' submissions."""
    return score_round(
        rules=rules,
        player_ids=["st", *cards],
        storyteller_id="st",
        storyteller_card="S",
        submissions={**cards, "st": ["S"]},
        votes=votes,
    )


FOUR = {"ann": ["A"], "bob": ["B"], "cat": ["C"]}
SIX = {"a": ["A"], "b": ["B"], "c": ["C"], "d": ["D"], "e": ["E"]}
SEVEN = {f"v{i}": [f"C{i}"] for i in range(1, 7)}


# --- score_round directly --------------------------------------------------------------------------


def test_a_storyteller_whose_card_everyone_finds_scores_nothing_and_everyone_else_two() -> None:
    points = score(CLASSIC, {"ann": ["S"], "bob": ["S"], "cat": ["S"]}, FOUR)
    # all found: st 0; ann, bob, cat 2 each; no vote lands on a submitted card
    assert points == {"st": 0, "ann": 2, "bob": 2, "cat": 2}


def test_a_storyteller_whose_card_nobody_finds_scores_nothing_and_the_others_keep_their_vote_points() -> None:
    points = score(CLASSIC, {"ann": ["B"], "bob": ["C"], "cat": ["B"]}, FOUR)
    # none found: st 0; everyone else 2, plus 1 per vote on their card
    # ann 2 + 0 = 2; bob 2 + 2 (ann, cat) = 4; cat 2 + 1 (bob) = 3
    assert points == {"st": 0, "ann": 2, "bob": 4, "cat": 3}


def test_when_some_find_the_storyteller_and_finders_score_three_and_decoys_a_point_per_vote() -> None:
    votes = {"a": ["S"], "b": ["S"], "c": ["A"], "d": ["C"], "e": ["C"]}
    points = score(CLASSIC, votes, SIX)
    # a, b found (not all): st 3; a 3 + 1 (c on A) = 4; b 3 + 0 = 3
    # c 0 + 2 (d, e on C) = 2; d 0; e 0
    assert points == {"st": 3, "a": 4, "b": 3, "c": 2, "d": 0, "e": 0}


def test_with_three_players_each_decoy_has_two_cards_and_votes_on_either_count() -> None:
    cards = {"ann": ["A1", "A2"], "bob": ["B1", "B2"]}
    # ann found, bob voted ann's second card: st 3; ann 3 + 1 = 4; bob 0
    assert score(CLASSIC, {"ann": ["S"], "bob": ["A2"]}, cards) == {"st": 3, "ann": 4, "bob": 0}
    # nobody found, each voted one of the other's cards: st 0; ann 2 + 1 = 3; bob 2 + 1 = 3
    assert score(CLASSIC, {"ann": ["B1"], "bob": ["A1"]}, cards) == {"st": 0, "ann": 3, "bob": 3}
    # both found: st 0; ann 2; bob 2
    assert score(CLASSIC, {"ann": ["S"], "bob": ["S"]}, cards) == {"st": 0, "ann": 2, "bob": 2}


def test_on_a_large_odyssey_table_a_finder_with_a_single_vote_earns_a_bonus_point() -> None:
    votes = {
        "v1": ["S"],  # lone finder
        "v2": ["S", "C3"],  # finder with two votes
        "v3": ["C1", "C2"],
        "v4": ["C3"],
        "v5": ["C1"],
        "v6": ["C3", "C1"],
    }
    points = score(ODYSSEY, votes, SEVEN)
    # v1, v2 found (not all): st 3
    # v1 3 + 1 (lone vote) + 3 (v3, v5, v6 on C1) = 7
    # v2 3 + 0 (two votes) + 1 (v3 on C2) = 4
    # v3 0 + 3 (v2, v4, v6 on C3) = 3; v4, v5, v6 0
    assert points == {"st": 3, "v1": 7, "v2": 4, "v3": 3, "v4": 0, "v5": 0, "v6": 0}


def test_on_a_large_odyssey_table_nobody_gets_the_lone_vote_bonus_when_everyone_finds() -> None:
    votes = {"v1": ["S"], "v2": ["S"], "v3": ["S", "C1"], "v4": ["S"], "v5": ["S"], "v6": ["S"]}
    points = score(ODYSSEY, votes, SEVEN)
    # all found: st 0, each other 2 and no bonus; v1 + 1 (v3 on C1) = 3
    assert points == {"st": 0, "v1": 3, "v2": 2, "v3": 2, "v4": 2, "v5": 2, "v6": 2}


def test_odyssey_caps_vote_points_at_three_per_player() -> None:
    votes = {"v1": ["S"], "v2": ["C1"], "v3": ["C1"], "v4": ["C1", "S"], "v5": ["C1"], "v6": ["S"]}
    points = score(ODYSSEY, votes, SEVEN)
    # v1, v4, v6 found: st 3
    # v1 3 + 1 (lone) + min(4 votes on C1, 3) = 7; v4 3 (two votes, no bonus); v6 3 + 1 (lone) = 4
    assert points == {"st": 3, "v1": 7, "v2": 0, "v3": 0, "v4": 3, "v5": 0, "v6": 4}


def test_odyssey_caps_vote_points_on_small_tables_too_while_classic_does_not() -> None:
    votes = {"a": ["S"], "b": ["A"], "c": ["A"], "d": ["A"], "e": ["A"]}
    # a alone found: st 3; a 3 + 4 votes on A (b, c, d, e)
    # odyssey: a 3 + min(4, 3) = 6 (and no lone-vote bonus with 6 players)
    assert score(ODYSSEY, votes, SIX) == {"st": 3, "a": 6, "b": 0, "c": 0, "d": 0, "e": 0}
    # classic: a 3 + 4 = 7
    assert score(CLASSIC, votes, SIX) == {"st": 3, "a": 7, "b": 0, "c": 0, "d": 0, "e": 0}


def test_odyssey_with_fewer_than_seven_players_has_no_lone_vote_bonus() -> None:
    votes = {"a": ["S"], "b": ["C"], "c": ["A"], "d": ["S"], "e": ["A"]}
    points = score(ODYSSEY, votes, SIX)
    # a, d found with a single vote each, but only 6 players: st 3; a 3 + 2 (c, e on A) = 5; d 3
    # c 0 + 1 (b on C) = 1; b 0; e 0
    assert points == {"st": 3, "a": 5, "b": 0, "c": 1, "d": 3, "e": 0}
    assert not is_large_odyssey_table(ODYSSEY, 6)
    assert is_large_odyssey_table(ODYSSEY, 7)


def test_classic_never_seats_seven_so_it_never_has_the_large_table_rules() -> None:
    with pytest.raises(InvalidMoveError) as error:
        Settings.build("classic", max_players=7)
    assert error.value.code == "invalid_max_players"
    assert not is_large_odyssey_table(CLASSIC, 7)


def test_the_storyteller_earns_nothing_for_votes_on_their_own_card_beyond_the_three() -> None:
    votes = {"ann": ["S"], "bob": ["S"], "cat": ["A"]}
    # ann, bob found: st 3 (not 3 + 2); ann 3 + 1 (cat on A) = 4; bob 3; cat 0
    assert score(CLASSIC, votes, FOUR) == {"st": 3, "ann": 4, "bob": 3, "cat": 0}


# --- through the engine ----------------------------------------------------------------------------


def test_a_classic_engine_round_where_some_find_scores_by_the_table() -> None:
    state = submit_all(give_clue(seated_game(5, "classic", seed=11)))
    st = storyteller(state)
    a, b, c, d = others(state)
    state = cast_votes(state, {a: STORYTELLER, b: a, c: a, d: STORYTELLER})
    # a, d found: st 3; a 3 + 2 (b, c) = 5; d 3; b 0; c 0
    expected = {st: 3, a: 5, b: 0, c: 0, d: 3}
    assert state.last_round is not None
    assert state.last_round.points == expected
    assert {p.player_id: p.score for p in state.players} == expected


def test_a_classic_engine_round_where_everyone_finds_gives_the_storyteller_nothing() -> None:
    state = submit_all(give_clue(seated_game(4, "classic", seed=12)))
    st = storyteller(state)
    a, b, c = others(state)
    state = cast_votes(state, {a: STORYTELLER, b: STORYTELLER, c: STORYTELLER})
    # all found: st 0, others 2
    assert {p.player_id: p.score for p in state.players} == {st: 0, a: 2, b: 2, c: 2}


def test_a_three_player_engine_round_counts_votes_on_either_decoy() -> None:
    state = submit_all(give_clue(seated_game(3, "classic", seed=13)))
    st = storyteller(state)
    a, b = others(state)
    state = cast_votes(state, {a: f"{b}#1", b: f"{a}#0"})
    # nobody found: st 0; a 2 + 1 (b on a's first) = 3; b 2 + 1 (a on b's second) = 3
    assert {p.player_id: p.score for p in state.players} == {st: 0, a: 3, b: 3}


def test_a_large_odyssey_engine_round_scores_two_votes_the_lone_vote_bonus_and_the_cap() -> None:
    state = submit_all(give_clue(seated_game(8, "odyssey", seed=14)))
    st = storyteller(state)
    v1, v2, v3, v4, v5, v6, v7 = others(state)
    votes = {
        v1: [STORYTELLER],
        v2: [STORYTELLER, v1],
        v3: [v1],
        v4: [v1, v2],
        v5: [v1],
        v6: [v3],
        v7: [v2, v3],
    }
    state = cast_votes(state, votes)
    # v1, v2 found: st 3
    # v1 3 + 1 (lone) + min(4 votes: v2 v3 v4 v5, 3) = 7
    # v2 3 (two votes) + 2 (v4, v7) = 5; v3 0 + 2 (v6, v7) = 2; v4..v7 0
    expected = {st: 3, v1: 7, v2: 5, v3: 2, v4: 0, v5: 0, v6: 0, v7: 0}
    assert state.last_round is not None
    assert state.last_round.points == expected
    assert {p.player_id: p.score for p in state.players} == expected
