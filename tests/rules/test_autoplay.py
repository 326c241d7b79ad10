"""`autoplay`: a silent seat still puts a card on the table and a vote in, and scores nothing by it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dixit.engine import AUTOPLAY_IDLE_ROTATIONS
from dixit.moves import Timeout
from dixit.scoring import score_round
from dixit.state import STOPPED_AFTER, EndNote, EndReason, GameState, Phase
from dixit.views import view_for

from .helpers import (
    NOW,
    STORYTELLER,
    act,
    bots_for,
    cast_votes,
    give_clue,
    others,
    seated_game,
    storyteller,
    submit_all,
)

TIMEOUT = 48 * 3600


def autoplay_game(
    players: int = 4, seed: int = 3, target_score: int | None = 200, rules: str = "classic"
) -> GameState:
    return seated_game(players, rules, seed=seed, target_score=target_score, policy="autoplay")


def time_out(state: GameState) -> GameState:
    deadline = state.deadline()
    assert deadline is not None
    return act(state, Timeout(), now=deadline)


def test_a_silent_submitter_has_a_card_from_their_hand_put_on_the_table_for_them() -> None:
    state = give_clue(autoplay_game())
    silent = others(state)[0]
    hand = list(state.hands[silent])
    state = time_out(submit_all(state, except_for=[silent]))
    assert state.phase is Phase.VOTING
    rnd = state.round
    assert rnd is not None
    played = rnd.submissions[silent]
    assert len(played) == 1
    assert played[0] in hand
    assert played[0] in rnd.table
    assert played[0] not in state.hands[silent]
    assert rnd.autoplayed == [silent]
    assert state.player(silent).missed == 1  # type: ignore[union-attr]
    view = view_for(state, silent)
    assert view.round is not None
    assert view.round.autoplayed == (silent,)
    assert view.you is not None
    assert view.you.submitted == tuple(played)


def test_three_players_autoplay_two_cards_as_everyone_submits_two() -> None:
    state = give_clue(autoplay_game(3))
    silent = others(state)[0]
    state = time_out(submit_all(state, except_for=[silent]))
    assert state.round is not None
    assert len(state.round.submissions[silent]) == 2


def test_a_silent_voter_has_a_legal_vote_cast_for_them_never_for_their_own_card() -> None:
    for seed in range(12):
        state = submit_all(give_clue(autoplay_game(seed=seed)))
        silent = others(state)[0]
        state = cast_votes(state, {p: STORYTELLER for p in others(state) if p != silent})
        assert state.round is not None
        own = state.round.submissions[silent]
        table = list(state.round.table)
        state = time_out(state)
        last = state.last_round
        assert last is not None
        assert last.autovoted == (silent,)
        voted = [c.card_id for c in last.cards if silent in c.voter_ids]
        assert len(voted) == 1
        assert voted[0] in table
        assert voted[0] not in own


def test_a_silent_storyteller_passes_the_role_since_a_clue_cannot_be_made_up() -> None:
    state = autoplay_game()
    teller = storyteller(state)
    hands = {p: list(h) for p, h in state.hands.items()}
    state = time_out(state)
    assert state.phase is Phase.STORYTELLING
    assert storyteller(state) != teller
    assert state.hands == hands


def test_an_autoplayed_vote_scores_nothing_for_anyone() -> None:
    state = submit_all(give_clue(autoplay_game()))
    silent, *awake = others(state)
    teller = storyteller(state)
    # Every real voter finds the storyteller's card: all found, so the storyteller scores 0, whatever
    # the random vote, which would otherwise hand the storyteller and the finders 3 points each.
    state = cast_votes(state, dict.fromkeys(awake, STORYTELLER))
    state = time_out(state)
    last = state.last_round
    assert last is not None
    assert last.points[teller] == 0
    assert last.points[silent] == 0
    assert all(last.points[p] == 2 for p in awake)
    assert sum(last.points.values()) == 2 * len(awake)


def test_an_autoplayed_card_earns_its_owner_nothing_even_when_voted_for() -> None:
    state = give_clue(autoplay_game())
    silent, fooled, finder = others(state)
    state = time_out(submit_all(state, except_for=[silent]))
    state = time_out(cast_votes(state, {fooled: silent, finder: STORYTELLER}))
    last = state.last_round
    assert last is not None
    card = next(c for c in last.cards if c.owner_id == silent)
    assert card.autoplayed
    assert fooled in card.voter_ids
    assert last.points[silent] == 0
    assert [c.autoplayed for c in last.cards].count(True) == 1


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(3, 6), late=st.sets(st.integers(0, 5)))
def test_autoplay_never_changes_what_the_answering_players_score(
    seed: int, players: int, late: set[int]
) -> None:
    """Each round's points are exactly what the real moves alone would score."""
    state = autoplay_game(players, seed=seed % 1000)
    bots = bots_for(state, seed)
    silent = {state.player_ids[i] for i in late if i < players}
    for _ in range(60):
        if state.phase is Phase.FINISHED:
            break
        movers = [p for p in state.awaited() if p not in silent]
        before = state
        if movers:
            move = bots[movers[0]].choose(view_for(state, movers[0]))
            assert move is not None
            state = act(state, move, now=NOW)
        else:
            state = time_out(state)
        rnd = before.round
        if state.last_round is not before.last_round and rnd is not None:
            last = state.last_round
            assert last is not None
            assert rnd.storyteller_card is not None
            votes = {c.card_id: c.voter_ids for c in last.cards}
            real = {v: [c for c, vs in votes.items() if v in vs] for v in before.player_ids}
            real = {v: cards for v, cards in real.items() if cards and v not in last.autovoted}
            owners: dict[str, list[str]] = {}
            for c in last.cards:
                if not c.autoplayed:
                    owners.setdefault(c.owner_id, []).append(c.card_id)
            expected = score_round(
                rules=state.settings.rules,
                player_ids=before.player_ids,
                storyteller_id=rnd.storyteller_id,
                storyteller_card=rnd.storyteller_card,
                submissions=owners,
                votes=real,
            )
            assert last.points == expected
            assert all(last.points[p] == 0 for p in silent if p != rnd.storyteller_id)


def test_the_same_seed_autoplays_the_same_cards_and_votes() -> None:
    def run() -> str:
        state = give_clue(autoplay_game(5, seed=11))
        state = time_out(state)
        state = time_out(state)
        return state.to_json()

    assert run() == run()


def test_a_table_with_two_answering_players_plays_on_past_any_number_of_silent_moves() -> None:
    state = autoplay_game(3, seed=5, target_score=15)
    silent = state.player_ids[2]
    bots = bots_for(state, 5)
    for _ in range(2000):
        if state.phase is Phase.FINISHED:
            break
        movers = [p for p in state.awaited() if p != silent]
        if movers:
            move = bots[movers[0]].choose(view_for(state, movers[0]))
            assert move is not None
            state = act(state, move, now=NOW)
        else:
            state = time_out(state)
    assert state.phase is Phase.FINISHED
    assert state.end_reason in (EndReason.TARGET_SCORE, EndReason.DECK_EXHAUSTED)
    assert state.player(silent).missed == STOPPED_AFTER  # type: ignore[union-attr]


def test_a_table_where_fewer_than_two_still_answer_is_abandoned_and_says_why() -> None:
    state = autoplay_game(3, seed=5, target_score=15)
    awake = state.player_ids[0]
    bots = bots_for(state, 5)
    for _ in range(2000):
        if state.phase is Phase.FINISHED:
            break
        if awake in state.awaited():
            move = bots[awake].choose(view_for(state, awake))
            assert move is not None
            state = act(state, move, now=NOW)
        else:
            state = time_out(state)
    assert state.end_reason is EndReason.ABANDONED
    assert state.end_note is EndNote.STOPPED_ANSWERING
    assert view_for(state, awake).end_note is EndNote.STOPPED_ANSWERING
    assert sum(p.missed >= STOPPED_AFTER for p in state.players) == 2


def test_a_table_that_answers_but_never_votes_in_time_is_abandoned_by_the_backstop() -> None:
    # Odyssey reshuffles the discard, so only the backstop can end it.
    state = autoplay_game(3, seed=2, target_score=15, rules="odyssey")
    bots = bots_for(state, 2)
    turns = 0
    for _ in range(20000):
        if state.phase is Phase.FINISHED:
            break
        if state.phase is Phase.VOTING:
            state = time_out(state)
            turns += 1
            continue
        mover = state.awaited()[0]
        move = bots[mover].choose(view_for(state, mover))
        assert move is not None
        state = act(state, move, now=NOW)
    assert state.end_reason is EndReason.ABANDONED
    assert state.end_note is EndNote.NO_ROUND_SCORED
    assert turns == AUTOPLAY_IDLE_ROTATIONS * 3


def test_autoplay_survives_the_stored_form() -> None:
    state = give_clue(autoplay_game())
    state = time_out(submit_all(state, except_for=[others(state)[0]]))
    assert GameState.from_json(state.to_json()) == state
    state = time_out(state)
    assert GameState.from_json(state.to_json()) == state
    assert state.last_round is not None
    assert state.last_round.autovoted
