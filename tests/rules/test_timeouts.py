"""Deadlines and timeouts: the core never reads a clock, each call says what time it is."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dixit.deadlines import DueKind, due_now, next_due, nudge_after, schedule
from dixit.engine import new_game
from dixit.errors import IllegalMoveError
from dixit.moves import GiveClue, Join, Start, Submit, Timeout, Vote
from dixit.settings import Settings
from dixit.state import EndReason, GameState, Phase
from dixit.views import OwedMove, may_come_back, owes, view_for

from .helpers import (
    HOST,
    NOW,
    STORYTELLER,
    act,
    apply,
    bots_for,
    cast_votes,
    give_clue,
    others,
    play_round,
    seated_game,
    storyteller,
    submit_all,
)

HOURS = 48
TIMEOUT = HOURS * 3600
DEADLINE = NOW + TIMEOUT


def game(players: int = 4, policy: str = "skip", seed: int = 8, target_score: int = 200) -> GameState:
    settings = Settings.build(target_score=target_score, move_timeout_hours=HOURS, timeout_policy=policy)
    state = new_game("g", host_id=HOST, host_name="Host", settings=settings, seed=seed)
    for seat in range(1, players):
        state = act(state, Join(f"p{seat}", f"Player {seat}"))
    return act(state, Start(HOST))


def time_out(state: GameState) -> GameState:
    """Let the owed moves of the current phase run out: a Timeout exactly at their deadline."""
    deadline = state.deadline()
    assert deadline is not None
    return act(state, Timeout(), now=deadline)


def hand_sets(state: GameState) -> dict[str, set[str]]:
    return {p: set(hand) for p, hand in state.hands.items()}


def scores(state: GameState) -> dict[str, int]:
    return {p.player_id: p.score for p in state.players}


# --- deadlines --------------------------------------------------------------------------------------


def test_each_owed_move_is_due_the_timeout_after_it_started_being_owed() -> None:
    state = game()
    assert state.deadline() == NOW + TIMEOUT  # the storyteller owes a clue since the start
    teller = storyteller(state)
    clued = act(state, GiveClue(teller, state.hands[teller][0], "a clue"), now=NOW + 500)
    assert clued.deadline() == NOW + 500 + TIMEOUT  # submitters owe a card since the clue
    view = view_for(clued, None)
    assert view.round is not None
    assert view.round.deadline == NOW + 500 + TIMEOUT
    assert [(w.player_id, w.move, w.deadline) for w in view.round.waiting] == [
        (p, OwedMove.SUBMIT, NOW + 500 + TIMEOUT) for p in others(state)
    ]
    # a submission does not move anybody's deadline: they all started owing together
    first = others(state)[0]
    later = act(clued, Submit(first, (clued.hands[first][0],)), now=NOW + 9000)
    assert later.deadline() == NOW + 500 + TIMEOUT


def test_a_timeout_is_refused_before_the_deadline_and_accepted_from_it() -> None:
    state = game()
    with pytest.raises(IllegalMoveError) as error:
        apply(state, Timeout(), now=DEADLINE - 1)
    assert error.value.code == "not_due"
    assert apply(state, Timeout(), now=DEADLINE).state.version == state.version + 1


def test_nothing_is_due_in_the_lobby_or_once_the_game_is_over() -> None:
    state = new_game("g", host_id=HOST, host_name="Host", settings=Settings.build(), seed=1)
    assert state.deadline() is None
    assert schedule(state) == ()
    finished = play_round(seated_game(4, seed=2, target_score=1))
    assert finished.phase is Phase.FINISHED
    assert next_due(finished) is None


# --- a silent storyteller ---------------------------------------------------------------------------


def test_a_silent_storyteller_loses_the_role_to_the_next_seat_and_the_round_restarts_same_hands() -> None:
    state = game()
    teller = storyteller(state)
    applied = apply(state, Timeout(), now=DEADLINE)
    assert applied.timed_out == (teller,)
    after = applied.state
    assert after.phase is Phase.STORYTELLING
    assert after.round is not None
    assert after.round.number == 1
    assert after.round.storyteller_id == state.player_ids[(state.seat_of(teller) + 1) % 4]
    assert after.hands == state.hands
    assert after.round.since == DEADLINE  # the new storyteller's time starts now
    assert scores(after) == scores(state)


# --- a silent submitter -----------------------------------------------------------------------------


def test_a_silent_submitter_sits_the_round_out_and_the_others_vote() -> None:
    state = give_clue(game(5))
    silent = others(state)[0]
    state = time_out(submit_all(state, except_for=[silent]))
    assert state.phase is Phase.VOTING
    assert state.round is not None
    assert state.round.sitting_out == [silent]
    assert len(state.round.table) == 4
    assert silent not in state.awaited()
    assert len(state.hands[silent]) == 6  # kept their cards
    with pytest.raises(IllegalMoveError) as error:
        apply(state, Vote(silent, (state.round.table[0],)))
    assert error.value.code == "sitting_out"
    voters = [p for p in others(state) if p != silent]
    state = cast_votes(state, dict.fromkeys(voters, STORYTELLER))
    assert state.last_round is not None
    assert state.last_round.points[silent] == 0
    assert state.round is not None
    assert state.round.sitting_out == []  # only that round


def test_with_fewer_than_two_cards_beside_the_storytellers_the_round_is_void() -> None:
    state = game(4)
    hands = hand_sets(state)
    teller = storyteller(state)
    state = give_clue(state)
    talker = others(state)[0]
    state = act(state, Submit(talker, (state.hands[talker][0],)))
    void = time_out(state)
    # one card beside the storyteller's: everyone takes their cards back and the role passes
    assert void.phase is Phase.STORYTELLING
    assert hand_sets(void) == hands
    assert void.round is not None
    assert void.round.number == 1
    assert void.round.storyteller_id == state.player_ids[(state.seat_of(teller) + 1) % 4]
    assert void.last_round is None
    assert void.discard == []


def test_with_three_players_one_silent_submitter_still_leaves_two_cards_beside_the_storytellers() -> None:
    state = give_clue(game(3))
    talker, silent = others(state)
    state = act(state, Submit(talker, tuple(state.hands[talker][:2])))
    state = time_out(state)
    assert state.phase is Phase.VOTING
    assert state.round is not None
    assert state.round.sitting_out == [silent]
    assert state.awaited() == (talker,)


# --- a silent voter ---------------------------------------------------------------------------------


def voting(players: int = 4) -> GameState:
    return submit_all(give_clue(game(players)))


def test_a_silent_voter_casts_no_vote_and_all_found_counts_only_those_who_voted() -> None:
    state = voting()
    a, b, silent = others(state)
    state = time_out(cast_votes(state, {a: STORYTELLER, b: STORYTELLER}))
    assert state.last_round is not None
    # everyone who voted found the card: the storyteller scores nothing, the voters 2 each
    assert state.last_round.points == {storyteller(voting()): 0, a: 2, b: 2, silent: 0}
    assert all(silent not in c.voter_ids for c in state.last_round.cards)


def test_none_found_also_counts_only_those_who_voted_and_a_silent_voters_card_still_earns_votes() -> None:
    state = voting()
    teller = storyteller(state)
    a, b, silent = others(state)
    state = time_out(cast_votes(state, {a: silent, b: a}))
    assert state.last_round is not None
    # nobody who voted found it: 2 to each voter, plus 1 per vote on their card
    assert state.last_round.points == {teller: 0, a: 3, b: 2, silent: 1}


def test_a_round_with_no_vote_at_all_scores_nothing_and_the_game_goes_on() -> None:
    state = voting()
    after = time_out(state)
    assert after.last_round is not None
    assert set(after.last_round.points.values()) == {0}
    assert scores(after) == scores(state)
    assert after.phase is Phase.STORYTELLING
    assert after.idle_turns == 1


# --- away -------------------------------------------------------------------------------------------


def silent_twice(state: GameState) -> tuple[GameState, str]:
    """A submitter who lets two submissions in a row time out, the rounds going on without them."""
    # the seat after the storyteller's tells next, so the last seat before the storyteller's does not
    silent = state.player_ids[(state.seat_of(storyteller(state)) - 1) % len(state.players)]
    for _ in range(2):
        state = give_clue(state)
        assert silent != storyteller(state)
        state = time_out(submit_all(state, except_for=[silent]))
        state = cast_votes(state, {p: STORYTELLER for p in others(state) if p != silent})
    return state, silent


def test_a_player_who_timed_out_twice_in_a_row_is_away_and_their_submission_is_skipped_at_once() -> None:
    state, silent = silent_twice(game(5, seed=3))
    away = state.player(silent)
    assert away is not None
    assert away.away
    assert view_for(state, None).players[state.seat_of(silent)].away
    state = give_clue(state)
    # nobody waits for them: they sit out from the clue on
    assert state.round is not None
    assert silent in state.round.sitting_out
    assert silent not in state.awaited()
    state = submit_all(state, except_for=[silent])
    assert state.phase is Phase.VOTING


def round_without(state: GameState, away: str) -> GameState:
    """A round the others play in full while `away` stays silent (and is never waited for)."""
    state = submit_all(give_clue(state), except_for=[away])
    assert state.phase is Phase.VOTING
    return cast_votes(state, {p: STORYTELLER for p in others(state) if p != away})


def test_an_away_storyteller_passes_the_role_at_once() -> None:
    state, silent = silent_twice(game(5, seed=3))
    while storyteller(state) != state.player_ids[(state.seat_of(silent) - 1) % 5]:
        state = round_without(state, silent)
    state = round_without(state, silent)
    # the round in which they would tell goes straight to the next seat
    assert storyteller(state) == state.player_ids[(state.seat_of(silent) + 1) % 5]
    assert state.idle_turns == 1


def test_any_move_brings_an_away_player_back() -> None:
    state, silent = silent_twice(game(5, seed=3))
    state = give_clue(state)
    state = act(state, Submit(silent, (state.hands[silent][0],)))
    player = state.player(silent)
    assert player is not None
    assert not player.away
    assert state.round is not None
    assert silent not in state.round.sitting_out
    state = submit_all(state, except_for=[silent])
    assert silent in state.awaited()  # awaited again for the vote


def test_an_away_player_is_shown_the_card_the_round_would_still_take_until_the_others_are_done() -> None:
    state, silent = silent_twice(game(5, seed=3))
    state = give_clue(state)
    assert silent not in state.awaited()  # still nobody waits for them
    owed = owes(state, silent)
    assert owed is not None
    assert (owed.move, owed.deadline) == (OwedMove.SUBMIT, state.deadline())
    assert may_come_back(state) == (silent,)
    state = submit_all(state, except_for=[silent])
    assert state.phase is Phase.VOTING
    assert owes(state, silent) is None
    assert may_come_back(state) == ()


def test_one_timeout_then_a_move_does_not_make_a_player_away() -> None:
    state = give_clue(game(5, seed=3))
    silent = state.player_ids[(state.seat_of(storyteller(state)) - 1) % 5]
    state = time_out(submit_all(state, except_for=[silent]))
    state = cast_votes(state, {p: STORYTELLER for p in others(state) if p != silent})
    state = submit_all(give_clue(state))  # their submission resets the count...
    state = time_out(state)  # ...so the vote timing out is one miss in a row again, not two
    player = state.player(silent)
    assert player is not None
    assert player.missed == 1
    assert not player.away


# --- abandoned --------------------------------------------------------------------------------------


def test_a_game_where_no_round_is_scored_during_a_full_rotation_of_storytellers_is_abandoned() -> None:
    state = play_round(
        game(4), lambda s: {others(s)[0]: STORYTELLER, **dict.fromkeys(others(s)[1:], others(s)[0])}
    )
    leader = max(state.players, key=lambda p: p.score).player_id
    for turn in range(3):
        state = time_out(state)
        assert state.phase is Phase.STORYTELLING, turn
    state = time_out(state)
    assert state.phase is Phase.FINISHED
    assert state.end_reason is EndReason.ABANDONED
    assert state.winners == [leader]


def test_a_scored_round_restarts_the_rotation_count() -> None:
    state = time_out(time_out(game(4)))
    assert state.idle_turns == 2
    state = play_round(state)
    assert state.idle_turns == 0


def test_a_table_where_everyone_is_away_is_abandoned_without_anyone_moving() -> None:
    state = game(3)
    for _ in range(20):
        if state.phase is Phase.FINISHED:
            break
        state = time_out(state)
    assert state.phase is Phase.FINISHED
    assert state.end_reason is EndReason.ABANDONED


# --- the wait policy --------------------------------------------------------------------------------


def test_under_wait_a_timeout_changes_nothing_in_play() -> None:
    for state in (game(policy="wait"), give_clue(game(policy="wait")), voting_wait()):
        applied = apply(state, Timeout(), now=(state.deadline() or 0) + 10 * TIMEOUT)
        assert applied.state.to_json() == state.to_json()
        assert applied.timed_out == ()


def voting_wait() -> GameState:
    return submit_all(give_clue(game(policy="wait")))


# --- what the sweep is told ----------------------------------------------------------------------


def test_reminders_fall_at_half_the_time_and_when_a_tenth_is_left_then_the_deadline() -> None:
    state = game()
    assert [(d.at, d.kind) for d in schedule(state)] == [
        (NOW + TIMEOUT // 2, DueKind.REMINDER),
        (NOW + TIMEOUT - TIMEOUT // 10, DueKind.LAST_CALL),
        (DEADLINE, DueKind.TIMEOUT),
    ]
    assert all(d.deadline == DEADLINE and d.player_ids == (storyteller(state),) for d in schedule(state))
    waiting = game(policy="wait")
    assert schedule(waiting)[-1].kind is DueKind.OVERDUE


def test_next_due_and_due_now_tell_the_sweep_what_comes_next_and_what_to_do_now() -> None:
    state = game()
    first = next_due(state)
    assert first is not None
    assert first.kind is DueKind.REMINDER
    assert due_now(state, NOW) is None
    assert due_now(state, first.at) == first
    later = next_due(state, after=first.at)
    assert later is not None
    assert later.kind is DueKind.LAST_CALL
    # a late sweep acts on the latest point reached and skips the stale reminder
    late = due_now(state, DEADLINE + 5)
    assert late is not None
    assert late.kind is DueKind.TIMEOUT
    assert next_due(state, after=DEADLINE) is None


# --- any pattern of timeouts ------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    policy=st.sampled_from(["skip", "autoplay"]),
    rules=st.sampled_from(["classic", "odyssey"]),
    players=st.integers(min_value=3, max_value=8),
    seed=st.integers(min_value=0, max_value=2**32),
    target=st.integers(min_value=1, max_value=30),
    silent_seats=st.sets(st.integers(min_value=0, max_value=7)),
    pattern=st.lists(st.booleans(), min_size=1, max_size=40),
)
def test_under_skip_or_autoplay_any_pattern_of_timeouts_always_finishes_the_game(
    policy: str, rules: str, players: int, seed: int, target: int, silent_seats: set[int], pattern: list[bool]
) -> None:
    players = min(players, 6 if rules == "classic" else 12)
    settings_ = Settings.build(rules, target_score=target, move_timeout_hours=1, timeout_policy=policy)
    state = new_game("g", host_id=HOST, host_name="Host", settings=settings_, seed=seed)
    for seat in range(1, players):
        state = act(state, Join(f"p{seat}", f"Player {seat}"))
    now = NOW
    state = act(state, Start(HOST), now=now)
    silent = {f"p{seat}" for seat in silent_seats}
    bots = bots_for(state, seed)
    for step in range(20000):
        if state.phase is Phase.FINISHED:
            break
        movers = [p for p in state.awaited() if p not in silent]
        if pattern[step % len(pattern)] or not movers:
            deadline = state.deadline()
            assert deadline is not None, "a game in play always owes a move"
            now = max(now, deadline)
            state = act(state, Timeout(), now=now)
        else:
            now += 60
            move = bots[movers[0]].choose(view_for(state, movers[0]))
            assert move is not None
            state = act(state, move, now=now)
    assert state.phase is Phase.FINISHED
    top = max(p.score for p in state.players)
    assert state.winners == [p.player_id for p in state.players if p.score == top]
    assert state.end_reason is not None


def test_a_nudge_is_fair_a_quarter_of_the_moves_time_in_and_moves_with_the_deadline() -> None:
    hours = 3600
    assert nudge_after(100 * hours, 48 * hours) == 64 * hours  # 12 of the 48 hours gone
    # An extension or a vacation pushes the deadline out, and the fair moment with it.
    assert nudge_after(124 * hours, 48 * hours) == 88 * hours
    assert nudge_after(10, 4) == 7
