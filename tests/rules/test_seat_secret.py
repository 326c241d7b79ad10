"""A seat taken mid-round joins with the seat's hand but not the round's secret: the newcomer never sees
the card the seat put on the table this round (nor its vote), sits the rest of the round out, and plays
from the next one (dixit.seat_changes.keep_round_secret)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dixit.bots import next_mover
from dixit.departures import depart
from dixit.errors import IllegalMoveError
from dixit.moves import OfferSeat, Submit, TakeSeat, Timeout, Vote
from dixit.state import GameState, Phase
from dixit.views import view_for

from .helpers import (
    HOST,
    NOW,
    act,
    apply,
    bots_for,
    give_clue,
    others,
    seated_game,
    storyteller,
    submit_all,
)

NEWBIE = "newbie"


def clued(players: int = 4, policy: str = "autoplay", seed: int = 4) -> GameState:
    return give_clue(seated_game(players, seed=seed, target_score=200, policy=policy))


def timed_out_submitter(players: int = 4, policy: str = "autoplay") -> tuple[GameState, str]:
    """Voting, with one submitter whose card the timeout played (autoplay) and whose seat is offered."""
    state = clued(players, policy)
    silent = next(p for p in others(state) if p != HOST)
    state = submit_all(state, except_for=[silent])
    state = act(state, Timeout(), now=state.deadline() or NOW)
    assert state.phase is Phase.VOTING
    return act(state, OfferSeat(HOST, silent)), silent


def secret_words(state: GameState, viewer: str) -> str:
    """Everything the viewer's view says, as text to search."""
    return repr(view_for(state, viewer))


def test_a_newcomer_in_a_seat_whose_decoy_is_on_the_table_never_sees_which_card_it_is() -> None:
    state, silent = timed_out_submitter()
    assert state.round is not None
    decoy = state.round.submissions[silent]
    taken = act(state, TakeSeat(NEWBIE, "Newcomer", silent))
    you = view_for(taken, NEWBIE).you
    assert you is not None
    assert (you.submitted, you.votes) == ((), ())
    assert you.hand == tuple(taken.hands[NEWBIE])  # the seat's hand is theirs at once
    # The card is still on the table, and still the seat's: nothing but the view changed.
    assert taken.round is not None
    assert taken.round.submissions[NEWBIE] == decoy
    assert set(decoy) <= set(taken.round.table)
    # They owe no vote (a refusal of a vote for their own card would tell the secret too).
    assert NEWBIE not in taken.awaited()
    assert not view_for(taken, NEWBIE).your_turn
    with pytest.raises(IllegalMoveError) as refused:
        act(taken, Vote(NEWBIE, (taken.round.table[0],)))
    assert refused.value.code == "sitting_out"


def test_the_newcomer_plays_from_the_next_round() -> None:
    state, silent = timed_out_submitter()
    taken = act(state, TakeSeat(NEWBIE, "Newcomer", silent))
    rnd = taken.round
    assert rnd is not None
    for voter in taken.awaited():
        card = next(c for c in rnd.table if c not in rnd.submissions[voter])
        taken = act(taken, Vote(voter, (card,)))
    assert taken.round is not None
    assert taken.round.number == rnd.number + 1
    assert taken.round.joined == []
    if storyteller(taken) != NEWBIE:
        taken = give_clue(taken)
        assert NEWBIE in taken.awaited()
        wanted = 1 if len(taken.players) > 3 else 2
        taken = act(taken, Submit(NEWBIE, tuple(taken.hands[NEWBIE][:wanted])))
        you = view_for(taken, NEWBIE).you
        assert you is not None
        assert len(you.submitted) == wanted  # their own card this time


def test_a_seat_taken_when_its_vote_was_the_last_owed_scores_the_round_at_once() -> None:
    state, silent = timed_out_submitter()
    rnd = state.round
    assert rnd is not None
    for voter in [p for p in state.awaited() if p != silent]:
        card = next(c for c in rnd.table if c not in rnd.submissions[voter])
        state = act(state, Vote(voter, (card,)))
    assert state.awaited() == (silent,)
    applied = apply(state, TakeSeat(NEWBIE, "Newcomer", silent))
    assert applied.finished_round is not None  # nobody left owing: no round frozen on a seat sitting out
    assert applied.state.round is not None
    assert applied.state.round.number == rnd.number + 1


def test_a_seat_taken_before_its_card_is_in_is_the_newcomers_to_play() -> None:
    state = clued()
    silent = next(p for p in others(state) if p != HOST)
    gone = silent
    depart(state, gone)  # a deleted account's seat may be offered at once, before it submitted
    state = act(state, OfferSeat(HOST, gone))
    taken = act(state, TakeSeat(NEWBIE, "Newcomer", gone))
    assert taken.round is not None
    assert taken.round.joined == []
    assert NEWBIE in taken.awaited()


def test_a_storytellers_seat_taken_after_the_clue_keeps_the_answer_from_the_newcomer() -> None:
    state = clued()
    teller = storyteller(state)
    assert teller != HOST  # seed 4: the host's own seat could not be offered
    assert state.round is not None
    answer = state.round.storyteller_card
    depart(state, teller)
    state = act(state, OfferSeat(state.host_id, teller))
    taken = act(state, TakeSeat(NEWBIE, "Newcomer", teller))
    you = view_for(taken, NEWBIE).you
    assert you is not None
    assert you.submitted == ()
    assert answer is not None
    assert answer not in secret_words(taken, NEWBIE)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(3, 6),
    st.integers(0, 10_000),
    st.integers(0, 40),
    st.sampled_from(["autoplay", "skip", "wait"]),
)
def test_no_newcomer_ever_sees_the_card_their_seat_played_in_the_round_they_joined(
    players: int, seed: int, steps: int, policy: str
) -> None:
    """Random games, a seat offered (its account deleted, so under every policy) and taken at a random
    moment: the newcomer's view never tells which cards the seat had played before they sat down, and
    the game always has a way forward."""
    state = seated_game(players, seed=seed, target_score=200, policy=policy)
    bots = bots_for(state, seed)
    now = NOW
    for _ in range(steps):
        mover = next_mover(state)
        if state.phase is Phase.FINISHED or mover is None:
            break
        move = bots[mover].choose(view_for(state, mover))
        assert move is not None
        state = act(state, move, now=now)
    if state.phase is Phase.FINISHED or state.round is None:
        return
    seat = next((p for p in state.player_ids if p != state.host_id), None)
    assert seat is not None
    depart(state, seat)
    if state.phase is Phase.FINISHED:
        return
    state = act(state, OfferSeat(state.host_id, seat), now=now)
    rnd = state.round
    assert rnd is not None
    played = list(rnd.submissions.get(seat, ()))
    if seat == rnd.storyteller_id and rnd.storyteller_card:
        played.append(rnd.storyteller_card)
    applied = apply(state, TakeSeat(NEWBIE, "Newcomer", seat), now=now)
    taken = applied.state
    if applied.finished_round is None and taken.round is not None and taken.round.number == rnd.number:
        # The cards may lie on the table for all to see; which of them is the seat's is the secret.
        view = view_for(taken, NEWBIE)
        assert view.you is not None
        assert not set(played) & {*view.you.submitted, *view.you.votes, *view.you.hand}
        assert view.round == view_for(taken, None).round  # the round as a spectator sees it, no more
    if taken.phase is not Phase.FINISHED:
        assert taken.awaited()  # never a round waiting on nobody
