"""A round from the deal to the refill: storytelling, submitting, voting and the rotation."""

from __future__ import annotations

import random

import pytest

from dixit.cards import OFFICIAL_DECKS
from dixit.errors import IllegalMoveError, InvalidMoveError
from dixit.moves import GiveClue, Start, Submit, Vote
from dixit.state import Phase

from .helpers import (
    HOST,
    STORYTELLER,
    act,
    apply,
    cast_votes,
    everyone_votes_storyteller,
    give_clue,
    lobby,
    others,
    play_round,
    play_to,
    seated_game,
    storyteller,
    submit_all,
)

BASE = OFFICIAL_DECKS["base"].card_ids()

# --- the deal ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "players", "size"),
    [
        ("classic", 3, 7),
        ("classic", 4, 6),
        ("classic", 6, 6),
        ("odyssey", 3, 7),
        ("odyssey", 7, 6),
        ("odyssey", 12, 6),
    ],
)
def test_each_player_is_dealt_six_cards_or_seven_with_three_players(
    rules: str, players: int, size: int
) -> None:
    state = seated_game(players, rules)
    assert [len(state.hands[p]) for p in state.player_ids] == [size] * players
    assert len(state.pile) == 84 - size * players
    dealt = [c for p in state.player_ids for c in state.hands[p]] + state.pile
    assert sorted(dealt) == sorted(BASE)
    assert state.discard == []


def test_the_deck_is_shuffled_with_the_games_seeded_rng_and_dealt_in_seat_order() -> None:
    seed = 4242
    state = seated_game(4, seed=seed)
    deck = list(BASE)
    random.Random(f"{seed}:deck:0").shuffle(deck)  # the deck's first order (docs/architecture.md)
    assert [state.hands[p] for p in state.player_ids] == [deck[0:6], deck[6:12], deck[12:18], deck[18:24]]
    assert state.pile == deck[24:]


def test_the_same_seed_deals_the_same_game_and_another_seed_a_different_one() -> None:
    assert seated_game(5, seed=1).to_json() == seated_game(5, seed=1).to_json()
    assert seated_game(5, seed=1).hands != seated_game(5, seed=2).hands


def test_the_first_storyteller_is_a_random_seat() -> None:
    firsts = {storyteller(seated_game(4, seed=seed)) for seed in range(60)}
    assert firsts == {"p0", "p1", "p2", "p3"}


def test_the_storyteller_role_passes_in_seat_order_and_wraps_around() -> None:
    state = act(lobby(4, target_score=200), Start(HOST))
    first = state.seat_of(storyteller(state))
    tellers = []
    for number in range(1, 7):
        assert state.round is not None
        assert state.round.number == number
        tellers.append(storyteller(state))
        state = play_round(
            state, lambda s: {**dict.fromkeys(others(s), others(s)[0]), others(s)[0]: STORYTELLER}
        )
    assert tellers == [f"p{(first + k) % 4}" for k in range(6)]


# --- storytelling -----------------------------------------------------------------------------------


def test_the_storyteller_plays_a_card_from_their_hand_with_a_trimmed_clue() -> None:
    state = seated_game(4, seed=3)
    teller = storyteller(state)
    card = state.hands[teller][2]
    after = act(state, GiveClue(teller, card, "   the last door  "))
    assert after.phase is Phase.SUBMITTING
    assert after.round is not None
    assert after.round.clue == "the last door"
    assert after.round.storyteller_card == card
    assert card not in after.hands[teller]
    assert len(after.hands[teller]) == 5


def test_a_clue_may_be_two_hundred_characters_after_trimming_but_not_more() -> None:
    state = seated_game(4, seed=3)
    teller = storyteller(state)
    card = state.hands[teller][0]
    padded = "  " + "x" * 200 + "  "
    assert act(state, GiveClue(teller, card, padded)).round.clue == "x" * 200  # type: ignore[union-attr]
    assert act(state, GiveClue(teller, card, "y")).round.clue == "y"  # type: ignore[union-attr]
    with pytest.raises(InvalidMoveError) as error:
        apply(state, GiveClue(teller, card, "x" * 201))
    assert error.value.code == "clue_too_long"


@pytest.mark.parametrize("clue", ["", "   ", " \u3164 "])
def test_a_blank_clue_is_malformed(clue: str) -> None:
    state = seated_game(4, seed=3)
    teller = storyteller(state)
    with pytest.raises(InvalidMoveError) as error:
        apply(state, GiveClue(teller, state.hands[teller][0], clue))
    assert error.value.code == "blank_clue"


# --- submitting -------------------------------------------------------------------------------------


def test_every_other_player_submits_one_card_and_voting_starts_when_the_last_is_in() -> None:
    state = play_to(Phase.SUBMITTING, 5, seed=8)
    last, *rest = reversed(others(state))
    for player in reversed(rest):
        card = state.hands[player][0]
        state = act(state, Submit(player, (card,)))
        assert state.phase is Phase.SUBMITTING
        assert card not in state.hands[player]
    state = act(state, Submit(last, (state.hands[last][0],)))
    assert state.phase is Phase.VOTING
    rnd = state.round
    assert rnd is not None
    assert len(rnd.table) == 5
    assert sorted(rnd.table) == sorted(
        [rnd.storyteller_card, *(c for cs in rnd.submissions.values() for c in cs)]
    )
    assert all(len(cards) == 1 for cards in rnd.submissions.values())


def test_with_three_players_each_other_player_submits_two_distinct_cards() -> None:
    state = play_to(Phase.SUBMITTING, 3, seed=8)
    a, b = others(state)
    with pytest.raises(InvalidMoveError) as error:
        apply(state, Submit(a, (state.hands[a][0],)))
    assert error.value.code == "wrong_card_count"
    with pytest.raises(InvalidMoveError) as error:
        apply(state, Submit(a, (state.hands[a][0], state.hands[a][0])))
    assert error.value.code == "duplicate_cards"
    state = act(state, Submit(a, tuple(state.hands[a][:2])))
    state = act(state, Submit(b, tuple(state.hands[b][:2])))
    assert state.phase is Phase.VOTING
    assert state.round is not None
    assert len(state.round.table) == 5


@pytest.mark.parametrize(("rules", "players"), [("classic", 4), ("odyssey", 9)])
def test_with_four_or_more_players_two_cards_are_one_too_many(rules: str, players: int) -> None:
    state = play_to(Phase.SUBMITTING, players, rules, seed=8)
    player = others(state)[0]
    with pytest.raises(InvalidMoveError) as error:
        apply(state, Submit(player, tuple(state.hands[player][:2])))
    assert error.value.code == "wrong_card_count"


def test_the_table_order_does_not_depend_on_who_played_which_card_or_when() -> None:
    state = play_to(Phase.SUBMITTING, 5, seed=21)
    a, b, c, d = others(state)
    picks = {a: state.hands[a][0], b: state.hands[b][0], c: state.hands[c][0], d: state.hands[d][0]}
    in_seat_order = state
    for player in (a, b, c, d):
        in_seat_order = act(in_seat_order, Submit(player, (picks[player],)))

    swapped = state.copy()  # a and b swap hands, so a now plays b's card and b plays a's
    swapped.hands[a], swapped.hands[b] = swapped.hands[b], swapped.hands[a]
    owners = {a: picks[b], b: picks[a], c: picks[c], d: picks[d]}
    for player in (d, b, c, a):  # and in another order
        swapped = act(swapped, Submit(player, (owners[player],)))

    assert in_seat_order.round is not None
    assert swapped.round is not None
    assert in_seat_order.round.submissions != swapped.round.submissions
    assert swapped.round.table == in_seat_order.round.table


def test_the_table_stays_in_its_order_throughout_the_vote() -> None:
    state = play_to(Phase.VOTING, 6, seed=5)
    assert state.round is not None
    table = list(state.round.table)
    votes = everyone_votes_storyteller(state)
    for voter in others(state)[:-1]:
        state = cast_votes(state, {voter: votes[voter]})
        assert state.round is not None
        assert state.round.table == table


# --- voting -----------------------------------------------------------------------------------------


def test_every_other_player_votes_for_one_card_and_the_round_ends_with_the_last_vote() -> None:
    state = play_to(Phase.VOTING, 4, seed=5)
    a, b, c = others(state)
    state = cast_votes(state, {a: STORYTELLER, b: a})
    assert state.phase is Phase.VOTING
    assert state.round is not None
    assert state.round.votes == {a: [state.round.storyteller_card], b: state.round.submissions[a]}
    applied = apply(state, Vote(c, (state.round.submissions[b][0],)))
    assert applied.finished_round is not None
    assert applied.finished_round.number == 1
    assert applied.state.last_round == applied.finished_round
    assert applied.state.phase is Phase.STORYTELLING


def test_only_the_last_vote_reports_a_finished_round() -> None:
    state = play_to(Phase.VOTING, 4, seed=5)
    first = others(state)[0]
    assert state.round is not None
    assert apply(state, Vote(first, (state.round.storyteller_card,))).finished_round is None  # type: ignore[arg-type]


def test_a_player_cannot_vote_for_their_own_card() -> None:
    state = play_to(Phase.VOTING, 4, seed=5)
    voter = others(state)[0]
    assert state.round is not None
    with pytest.raises(IllegalMoveError) as error:
        apply(state, Vote(voter, tuple(state.round.submissions[voter])))
    assert error.value.code == "own_card_vote"


def test_with_three_players_neither_of_your_own_two_cards_can_be_voted_for() -> None:
    state = play_to(Phase.VOTING, 3, seed=5)
    voter = others(state)[0]
    assert state.round is not None
    for card in state.round.submissions[voter]:
        with pytest.raises(IllegalMoveError) as error:
            apply(state, Vote(voter, (card,)))
        assert error.value.code == "own_card_vote"


def test_the_storyteller_does_not_vote() -> None:
    state = play_to(Phase.VOTING, 4, seed=5)
    assert state.round is not None
    with pytest.raises(IllegalMoveError) as error:
        apply(state, Vote(storyteller(state), (state.round.table[0],)))
    assert error.value.code == "storyteller_cannot_vote"


@pytest.mark.parametrize(("rules", "players"), [("classic", 6), ("odyssey", 6), ("odyssey", 3)])
def test_outside_large_odyssey_tables_a_second_vote_is_malformed(rules: str, players: int) -> None:
    state = play_to(Phase.VOTING, players, rules, seed=5)
    voter = others(state)[0]
    assert state.round is not None
    two = [c for c in state.round.table if c not in state.round.submissions[voter]][:2]
    with pytest.raises(InvalidMoveError) as error:
        apply(state, Vote(voter, tuple(two)))
    assert error.value.code == "wrong_card_count"


@pytest.mark.parametrize("players", [7, 12])
def test_on_large_odyssey_tables_a_player_votes_for_one_or_two_distinct_cards(players: int) -> None:
    state = play_to(Phase.VOTING, players, "odyssey", seed=5)
    a, b, c, *_ = others(state)
    assert state.round is not None
    assert act(state, Vote(a, (state.round.submissions[b][0],))).round.votes[a]  # type: ignore[union-attr]
    two = (state.round.storyteller_card, state.round.submissions[b][0])
    assert act(state, Vote(a, two)).round.votes[a] == list(two)  # type: ignore[arg-type, union-attr]
    for bad, code in [
        ((two[1], two[1]), "duplicate_cards"),
        ((*two, state.round.submissions[c][0]), "wrong_card_count"),
    ]:
        with pytest.raises(InvalidMoveError) as error:
            apply(state, Vote(a, bad))  # type: ignore[arg-type]
        assert error.value.code == code
    with pytest.raises(IllegalMoveError) as illegal:
        apply(state, Vote(a, (state.round.submissions[b][0], state.round.submissions[a][0])))
    assert illegal.value.code == "own_card_vote"


# --- after the vote ---------------------------------------------------------------------------------


def test_played_cards_go_to_the_discard_and_hands_refill_from_the_pile_in_seat_order() -> None:
    state = play_to(Phase.VOTING, 4, seed=31)
    assert state.round is not None
    table = list(state.round.table)
    pile = list(state.pile)
    hands = {p: list(h) for p, h in state.hands.items()}
    teller = storyteller(state)
    after = cast_votes(state, everyone_votes_storyteller(state))
    # the storyteller is short one card, like everyone else; seat order decides who draws first
    expected = {player: [*hands[player], pile[seat]] for seat, player in enumerate(state.player_ids)}
    assert after.hands == expected
    assert after.pile == pile[4:]
    assert sorted(after.discard) == sorted(table)
    assert after.round is not None
    assert after.round.number == 2
    assert after.round.storyteller_id == state.player_ids[(state.seat_of(teller) + 1) % 4]
    assert after.round.submissions == {}
    assert after.round.votes == {}
    assert after.round.table == []


def test_three_player_hands_refill_to_seven_drawing_two_or_one_card_each() -> None:
    state = submit_all(give_clue(seated_game(3, seed=32)))
    pile = list(state.pile)
    hands = {p: list(h) for p, h in state.hands.items()}
    after = cast_votes(state, everyone_votes_storyteller(state))
    expected, drawn = {}, 0
    for player in state.player_ids:
        need = 7 - len(hands[player])
        expected[player] = [*hands[player], *pile[drawn : drawn + need]]
        drawn += need
    assert drawn == 5
    assert after.hands == expected
    assert all(len(h) == 7 for h in after.hands.values())


def test_a_move_never_changes_the_state_it_was_applied_to_and_bumps_the_version() -> None:
    state = play_to(Phase.VOTING, 4, seed=5)
    before = state.to_json()
    voter = others(state)[0]
    assert state.round is not None
    applied = apply(state, Vote(voter, (state.round.storyteller_card,)))  # type: ignore[arg-type]
    assert state.to_json() == before
    assert applied.state.version == state.version + 1
    with pytest.raises(IllegalMoveError):
        apply(applied.state, Vote(voter, (state.round.table[0],)))
    assert state.to_json() == before


# --- the seeded RNG ---------------------------------------------------------------------------------


def test_the_table_is_shuffled_with_the_next_stream_of_the_games_rng() -> None:
    state = play_to(Phase.SUBMITTING, 5, seed=77)
    draws = state.draws
    state = submit_all(state)
    assert state.round is not None
    expected = sorted(state.round.table)
    random.Random(f"77:{draws}").shuffle(expected)
    assert state.round.table == expected
    assert state.draws == draws + 1


def test_the_storytellers_card_can_land_anywhere_on_the_table() -> None:
    positions = set()
    for seed in range(40):
        state = play_to(Phase.VOTING, 4, seed=seed)
        assert state.round is not None
        positions.add(state.round.table.index(state.round.storyteller_card))  # type: ignore[arg-type]
    assert positions == {0, 1, 2, 3}


def test_every_shuffle_and_draw_takes_a_fresh_rng_stream() -> None:
    # the first storyteller: one stream (the deck has its own, per generation); each table: one more
    state = seated_game(4, seed=5)
    assert state.draws == 1
    state = play_round(state)
    assert state.draws == 2
    assert play_round(state).draws == 3
