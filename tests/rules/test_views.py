"""What each player, and a spectator, may see of a game."""

from __future__ import annotations

import dataclasses
import json

import pytest

from dixit.moves import Submit, Vote
from dixit.state import EndReason, GameState, Phase
from dixit.views import GameView, Owed, OwedMove, view_for

from .helpers import (
    STORYTELLER,
    act,
    cast_votes,
    everyone_votes_storyteller,
    give_clue,
    lobby,
    others,
    play_round,
    play_to,
    seated_game,
    storyteller,
)

SEED = 918273645


def text_of(view: GameView) -> str:
    return json.dumps(dataclasses.asdict(view), default=str)


def hidden_cards_in(view: GameView, cards: list[str]) -> list[str]:
    text = text_of(view)
    return [c for c in cards if f'"{c}"' in text]


def test_a_player_sees_their_own_hand_and_only_the_size_of_the_others() -> None:
    state = seated_game(4, seed=SEED)
    view = view_for(state, "p1")
    assert view.you is not None
    assert view.you.player_id == "p1"
    assert list(view.you.hand) == state.hands["p1"]
    assert [(p.player_id, p.hand_size) for p in view.players] == [(p, 6) for p in state.player_ids]
    assert hidden_cards_in(view, [c for p in ("p0", "p2", "p3") for c in state.hands[p]]) == []


@pytest.mark.parametrize("viewer", [None, "stranger"])
def test_a_spectator_sees_no_hand_at_all(viewer: str | None) -> None:
    state = play_to(Phase.SUBMITTING, 4, seed=SEED)
    view = view_for(state, viewer)
    assert view.you is None
    assert hidden_cards_in(view, [c for hand in state.hands.values() for c in hand]) == []


def test_no_view_holds_the_pile_the_discard_or_the_seed() -> None:
    state = play_round(seated_game(4, seed=SEED, target_score=200), everyone_votes_storyteller)
    assert state.discard
    assert state.pile
    for viewer in [None, *state.player_ids]:
        view = view_for(state, viewer)
        assert hidden_cards_in(view, state.pile) == []
        assert str(SEED) not in text_of(view)
        assert not {"pile", "discard", "seed", "draws", "hands"} & {f.name for f in dataclasses.fields(view)}


def test_while_submitting_everyone_sees_who_has_submitted_but_not_what() -> None:
    state = give_clue(seated_game(5, seed=SEED))
    teller = storyteller(state)
    a, b, c, d = others(state)
    assert state.round is not None
    clue_card = state.round.storyteller_card
    submitted = act(state, Submit(b, (state.hands[b][0],)))
    view = view_for(submitted, a)
    assert view.round is not None
    assert view.round.clue == "a quiet storm"
    assert view.round.waiting_for == (a, c, d)
    assert view.round.table == ()
    assert view.you is not None
    assert view.you.submitted == ()
    assert hidden_cards_in(view, [state.hands[b][0], clue_card]) == []  # type: ignore[list-item]
    # b's own view shows b's card; the storyteller's shows the storyteller's
    assert view_for(submitted, b).you.submitted == (state.hands[b][0],)  # type: ignore[union-attr]
    assert view_for(submitted, teller).you.submitted == (clue_card,)  # type: ignore[union-attr]


def test_what_someone_else_submitted_makes_no_difference_to_your_view() -> None:
    state = give_clue(seated_game(5, seed=SEED))
    a, b, *_ = others(state)
    one = act(state, Submit(b, (state.hands[b][0],)))
    other = act(state, Submit(b, (state.hands[b][1],)))
    assert view_for(one, a) == view_for(other, a)
    assert view_for(one, None) == view_for(other, None)


def test_while_voting_everyone_sees_the_table_in_its_fixed_order_and_their_own_card() -> None:
    state = play_to(Phase.VOTING, 5, seed=SEED)
    rnd = state.round
    assert rnd is not None
    for viewer in [None, *state.player_ids]:
        view = view_for(state, viewer)
        assert view.round is not None
        assert list(view.round.table) == rnd.table
        assert view.round.waiting_for == tuple(others(state))
    a = others(state)[0]
    assert view_for(state, a).you.submitted == tuple(rnd.submissions[a])  # type: ignore[union-attr]


def test_while_voting_everyone_sees_who_has_voted_but_not_for_what() -> None:
    state = play_to(Phase.VOTING, 5, seed=SEED)
    a, b, c, d = others(state)
    for_storyteller = cast_votes(state, {b: STORYTELLER})
    for_a = cast_votes(state, {b: a})
    for viewer in (None, storyteller(state), a, c):
        view = view_for(for_storyteller, viewer)
        assert view == view_for(for_a, viewer)
        assert view.round is not None
        assert view.round.waiting_for == (a, c, d)
    assert view_for(for_a, b).you.votes == (for_a.round.submissions[a][0],)  # type: ignore[union-attr]


def test_who_played_the_storytellers_card_cannot_be_told_from_the_table() -> None:
    state = seated_game(4, seed=SEED)
    teller = storyteller(state)
    a, b, c = others(state)
    x, y = state.hands[teller][0], state.hands[a][0]
    swapped = state.copy()  # the storyteller and a swap x and y before the round
    swapped.hands[teller][0], swapped.hands[a][0] = y, x
    seen = []
    for game, clue_card, a_card in ((state, x, y), (swapped, y, x)):
        game = give_clue(game, clue_card)
        game = act(game, Submit(a, (a_card,)))
        game = act(game, Submit(b, (game.hands[b][0],)))
        game = act(game, Submit(c, (game.hands[c][0],)))
        seen.append(view_for(game, b))
    assert seen[0] == seen[1]


def test_after_each_round_everyone_sees_the_full_reveal() -> None:
    state = play_to(Phase.VOTING, 4, seed=SEED)
    rnd = state.round
    assert rnd is not None
    a, b, c = others(state)
    state = cast_votes(state, {a: STORYTELLER, b: a, c: a})
    for viewer in [None, *state.player_ids]:
        reveal = view_for(state, viewer).last_round
        assert reveal is not None
        assert reveal.storyteller_id == rnd.storyteller_id
        assert reveal.storyteller_card == rnd.storyteller_card
        assert reveal.clue == "a quiet storm"
        assert [card.card_id for card in reveal.cards] == rnd.table
        owners = {card.card_id: card.owner_id for card in reveal.cards}
        voters = {card.card_id: card.voter_ids for card in reveal.cards}
        assert owners[rnd.submissions[a][0]] == a
        assert voters[rnd.submissions[a][0]] == tuple(sorted((b, c), key=state.seat_of))
        assert voters[rnd.storyteller_card] == (a,)  # type: ignore[index]
        assert reveal.points == {p.player_id: p.score for p in state.players}


def test_the_lobby_view_lists_the_seated_players() -> None:
    view = view_for(lobby(3), "p1")
    assert view.phase is Phase.LOBBY
    assert view.round is None
    assert [p.player_id for p in view.players] == ["p0", "p1", "p2"]
    assert view.you is not None
    assert view.you.hand == ()


def test_a_finished_game_shows_the_winners_and_the_last_reveal() -> None:
    state: GameState = play_round(seated_game(4, seed=SEED, target_score=2), everyone_votes_storyteller)
    view = view_for(state, None)
    assert view.phase is Phase.FINISHED
    assert view.round is None
    assert view.winners == tuple(state.winners)
    assert view.last_round == state.last_round


def test_while_storytelling_only_the_storyteller_is_awaited() -> None:
    state = seated_game(4, seed=SEED)
    view = view_for(state, "p0")
    assert view.round is not None
    assert view.round.waiting_for == (storyteller(state),)
    assert view.round.clue is None
    assert view.round.table == ()


def test_a_vote_in_progress_is_not_revealed_by_hand_sizes_or_anything_else() -> None:
    state = play_to(Phase.VOTING, 4, seed=SEED)
    a, b, _ = others(state)
    assert state.round is not None
    voted = act(state, Vote(b, (state.round.submissions[a][0],)))
    before, after = view_for(state, a), view_for(voted, a)
    assert after.round is not None
    assert before.round is not None
    assert dataclasses.replace(after, version=before.version, round=before.round) == before


def test_hand_sizes_follow_the_deal_and_each_card_played() -> None:
    state = give_clue(seated_game(3, seed=SEED))
    teller = storyteller(state)
    a, b = others(state)
    state = act(state, Submit(a, tuple(state.hands[a][:2])))
    sizes = {p.player_id: p.hand_size for p in view_for(state, b).players}
    assert sizes == {teller: 6, a: 5, b: 7}


# --- what a client needs to act ---------------------------------------------------------------------


def test_the_storyteller_owes_a_clue_and_nobody_else_owes_anything() -> None:
    state = seated_game(4, seed=SEED)
    teller = storyteller(state)
    deadline = state.deadline()
    assert deadline is not None
    view = view_for(state, teller)
    assert view.your_turn
    assert view.you is not None
    assert view.you.owes == Owed(OwedMove.CLUE, (1,), deadline)
    assert view.you.owes.count == 1
    for other in others(state):
        other_view = view_for(state, other)
        assert not other_view.your_turn
        assert other_view.you is not None
        assert other_view.you.owes is None


@pytest.mark.parametrize(("players", "count"), [(3, 2), (4, 1), (6, 1)])
def test_submitters_owe_one_card_or_two_at_three_players(players: int, count: int) -> None:
    state = play_to(Phase.SUBMITTING, players, seed=SEED)
    view = view_for(state, others(state)[0])
    assert view.you is not None
    assert view.you.owes is not None
    assert (view.you.owes.move, view.you.owes.counts) == (OwedMove.SUBMIT, (count,))
    assert view.round is not None
    assert view.round.cards_to_submit == count
    assert not view_for(state, storyteller(state)).your_turn


@pytest.mark.parametrize(("rules", "players", "counts"), [("classic", 6, (1,)), ("odyssey", 7, (1, 2))])
def test_voters_owe_one_vote_or_a_choice_of_one_or_two_at_a_large_odyssey_table(
    rules: str, players: int, counts: tuple[int, ...]
) -> None:
    state = play_to(Phase.VOTING, players, rules, seed=SEED)
    view = view_for(state, others(state)[0])
    assert view.you is not None
    assert view.you.owes is not None
    assert (view.you.owes.move, view.you.owes.counts) == (OwedMove.VOTE, counts)
    assert view.you.owes.count == (1 if counts == (1,) else None)
    assert view.round is not None
    assert view.round.votes_allowed == counts


def test_the_waiting_players_are_named_with_their_move_and_deadline() -> None:
    state = play_to(Phase.SUBMITTING, 4, seed=SEED)
    a, b, c = others(state)
    state = act(state, Submit(b, (state.hands[b][0],)))
    view = view_for(state, None)
    assert view.round is not None
    assert [(w.player_id, w.name, w.move, w.deadline) for w in view.round.waiting] == [
        (p, state.player(p).name, OwedMove.SUBMIT, state.deadline())  # type: ignore[union-attr]
        for p in (a, c)
    ]
    assert not view.your_turn  # a spectator never owes anything


def test_only_the_host_of_a_lobby_that_can_start_has_a_turn() -> None:
    assert not view_for(lobby(2), "p0").your_turn
    assert view_for(lobby(3), "p0").your_turn
    assert not view_for(lobby(3), "p1").your_turn


def test_a_finished_game_says_why_it_ended_and_owes_nothing() -> None:
    state = play_round(seated_game(4, seed=SEED, target_score=1), everyone_votes_storyteller)
    view = view_for(state, "p0")
    assert view.end_reason is EndReason.TARGET_SCORE
    assert view.round is None
    assert not view.your_turn
