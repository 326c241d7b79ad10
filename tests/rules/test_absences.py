"""Vacations, extensions and offered seats: a table waits for an absent player, within limits."""

from __future__ import annotations

import contextlib
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dixit.bots import RandomBot
from dixit.cards import OFFICIAL_DECKS
from dixit.errors import DixitError, IllegalMoveError
from dixit.limits import DEFAULT_VACATION_DAYS, EXTENSION_SECONDS
from dixit.moves import Extend, Join, Move, OfferSeat, RemovePlayer, Submit, TakeSeat, Timeout, Vacation
from dixit.state import GameState, Phase
from dixit.views import view_for

from .helpers import (
    HOST,
    NOW,
    act,
    apply,
    bots_for,
    card_places,
    give_clue,
    others,
    seated_game,
    storyteller,
    submit_all,
)

TIMEOUT = 48 * 3600
DAY = 24 * 3600


def game(players: int = 4) -> GameState:
    return give_clue(seated_game(players, seed=4, target_score=200, policy="autoplay"))


def test_a_vacation_stops_the_deadline_of_the_player_on_it() -> None:
    state = game()
    away = others(state)[0]
    before = state.deadline_of(away)
    state = act(state, Vacation(away, 3), now=NOW + 3600)
    assert state.deadline_of(away) == before + 3 * DAY
    # the others keep theirs, and the phase times out for them first
    assert state.deadline() == before
    view = view_for(state, others(state)[1])
    assert next(p for p in view.players if p.player_id == away).vacation_until == NOW + 3600 + 3 * DAY
    waiting = {w.player_id: w.deadline for w in view.round.waiting}  # type: ignore[union-attr]
    assert waiting[away] == before + 3 * DAY


def test_only_the_players_whose_own_deadline_passed_time_out() -> None:
    state = game()
    away, *rest = others(state)
    state = act(state, Vacation(away, 2), now=NOW)
    state = act(state, Timeout(), now=NOW + TIMEOUT)
    assert state.phase is Phase.SUBMITTING
    assert state.round is not None
    assert sorted(state.round.autoplayed) == sorted(rest)
    assert state.awaited() == (away,)
    state = act(state, Submit(away, (state.hands[away][0],)), now=NOW + TIMEOUT + 60)
    assert state.phase is Phase.VOTING


def test_a_move_ends_the_vacation_early_and_the_deadline_comes_back() -> None:
    state = game()
    away = others(state)[0]
    state = act(state, Vacation(away, 5), now=NOW)
    state = act(state, Vacation(others(state)[1], 1), now=NOW)
    back = act(state, Submit(away, (state.hands[away][0],)), now=NOW + DAY)
    player = back.player(away)
    assert player is not None
    assert not player.on_vacation(NOW + DAY)
    assert player.vacation_days_used == 5


def test_vacation_days_are_counted_and_capped_per_game() -> None:
    state = game()
    away = others(state)[0]
    with pytest.raises(IllegalMoveError) as error:
        act(state, Vacation(away, DEFAULT_VACATION_DAYS + 1))
    assert error.value.code == "no_vacation_days_left"
    state = act(state, Vacation(away, DEFAULT_VACATION_DAYS))
    assert view_for(state, away).players[state.seat_of(away)].vacation_days_left == 0


@settings(max_examples=40, deadline=None)
@given(days=st.lists(st.integers(1, 10), max_size=8))
def test_no_sequence_of_vacations_declares_more_days_than_the_setting(days: list[int]) -> None:
    state = seated_game(4, seed=4, target_score=200, policy="autoplay")
    now = NOW
    for ask in days:
        teller = storyteller(state)
        with contextlib.suppress(IllegalMoveError):
            state = act(state, Vacation(teller, ask), now=now)
        now += (ask + 1) * DAY
        state = act(state, Timeout(), now=max(now, state.deadline() or now))
        player = state.player(teller)
        assert player is not None
        assert player.vacation_days_used <= state.settings.vacation_days
        if state.phase is Phase.FINISHED:
            break


def test_an_extension_gives_the_awaited_player_a_day_more_once_per_owed_move() -> None:
    state = game()
    late, giver = others(state)[:2]
    before = state.deadline_of(late)
    state = act(state, Extend(giver, late))
    assert state.deadline_of(late) == before + EXTENSION_SECONDS
    with pytest.raises(IllegalMoveError) as again:
        act(state, Extend(HOST if late != HOST else giver, late))
    assert again.value.code == "already_extended"
    # the next owed move can be extended again
    state = submit_all(state)
    assert state.phase is Phase.VOTING
    state = act(state, Extend(giver, late))
    assert state.round is not None
    assert state.round.extended == {late: EXTENSION_SECONDS}


def test_nobody_extends_a_player_the_game_is_not_waiting_on() -> None:
    state = game()
    with pytest.raises(IllegalMoveError) as error:
        act(state, Extend(others(state)[0], storyteller(state)))
    assert error.value.code == "not_awaited"


def offered(players: int = 4) -> tuple[GameState, str]:
    state = game(players)
    silent = next(p for p in others(state) if p != HOST)
    state = submit_all(state, except_for=[silent])
    state = act(state, Timeout(), now=state.deadline() or NOW)
    return act(state, OfferSeat(HOST, silent), now=NOW + TIMEOUT), silent


def test_the_host_may_offer_a_seat_only_after_its_player_timed_out() -> None:
    state = game()
    with pytest.raises(IllegalMoveError) as error:
        act(state, OfferSeat(HOST, next(p for p in others(state) if p != HOST)))
    assert error.value.code == "not_timed_out"
    state, silent = offered()
    assert state.offered == {silent: NOW + TIMEOUT}
    assert next(p for p in view_for(state, None).players if p.player_id == silent).offered


def test_a_newcomer_takes_an_offered_seat_with_its_hand_score_and_place_in_the_round() -> None:
    state, silent = offered()
    hand, score, seat = (
        list(state.hands[silent]),
        state.players[state.seat_of(silent)].score,
        state.seat_of(silent),
    )
    assert state.round is not None
    voted = silent in state.round.votes
    taken = act(state, TakeSeat("newbie", "Newcomer", silent))
    assert taken.player_ids[seat] == "newbie"
    assert taken.player(silent) is None
    assert taken.hands["newbie"] == hand
    assert taken.players[seat].score == score
    assert taken.players[seat].name == "Newcomer"
    assert taken.offered == {}
    assert taken.round is not None
    assert ("newbie" in taken.round.votes) == voted
    # Its card was in (autoplayed): the newcomer sits out the rest of this round, and plays from the next
    # (tests/rules/test_seat_secret.py).
    assert "newbie" not in taken.awaited()
    view = view_for(taken, "newbie")
    assert view.you is not None
    assert view.you.hand == tuple(hand)


def test_a_seat_that_is_not_offered_cannot_be_taken() -> None:
    state = game()
    with pytest.raises(IllegalMoveError) as error:
        act(state, TakeSeat("newbie", "Newcomer", others(state)[0]))
    assert error.value.code == "seat_not_offered"


def test_a_player_who_comes_back_withdraws_the_offer_of_their_seat() -> None:
    state, silent = offered()
    from dixit.moves import Vote

    assert state.round is not None
    card = next(c for c in state.round.table if c not in state.round.submissions[silent])
    back = act(state, Vote(silent, (card,)))
    assert silent not in back.offered


# --- removal ----------------------------------------------------------------------------------------


def removed(players: int = 5) -> tuple[GameState, str]:
    state, silent = offered(players)
    state = act(state, RemovePlayer(HOST, silent))
    return state, silent


def test_a_removed_player_keeps_their_seat_until_the_round_ends_then_leaves_with_their_hand() -> None:
    state, silent = removed(5)
    assert state.player(silent) is not None
    assert state.leaving == [silent]
    assert silent not in state.offered  # removal replaces the offer
    assert next(p for p in view_for(state, None).players if p.player_id == silent).leaving
    hand = set(state.hands[silent])
    applied = apply(state, Timeout(), now=state.deadline() or NOW)  # the votes time out: round over
    after = applied.state
    assert after.player(silent) is None
    assert applied.left == (silent,)
    assert silent not in after.hands
    assert after.leaving == []
    assert hand <= set(after.discard)
    assert all(len(h) == 6 for h in after.hands.values())
    # The reveal in the history names them; the game's last reveal keeps only seated players.
    assert applied.finished_round is not None
    assert silent in applied.finished_round.points
    assert after.last_round is not None
    assert silent not in after.last_round.points
    assert GameState.from_json(after.to_json()).to_json() == after.to_json()


def test_the_next_storyteller_skips_a_removed_seat() -> None:
    state, silent = removed(5)
    teller = storyteller(state)
    ids = state.player_ids
    after = act(state, Timeout(), now=state.deadline() or NOW)
    following = [ids[(ids.index(teller) + k) % len(ids)] for k in range(1, len(ids))]
    assert storyteller(after) == next(p for p in following if p != silent)


def test_a_table_of_four_that_loses_a_seat_plays_on_under_the_three_player_rules() -> None:
    state, _silent = removed(4)
    after = act(state, Timeout(), now=state.deadline() or NOW)
    assert len(after.players) == 3
    assert after.phase is Phase.STORYTELLING
    assert all(len(h) == 7 for h in after.hands.values())


def test_removal_never_leaves_fewer_than_three_players() -> None:
    state, silent = offered(3)
    with pytest.raises(IllegalMoveError) as error:
        act(state, RemovePlayer(HOST, silent))
    assert error.value.code == "too_few_players"


# --- any mix of absences ----------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(3, 6),
    actions=st.lists(st.integers(0, 9), min_size=100, max_size=400),
)
def test_any_mix_of_absences_keeps_every_card_in_one_place_and_the_state_whole(
    seed: int, players: int, actions: list[int]
) -> None:
    """Bots play, time out, go on vacation, extend, offer, take and remove seats in any order: every card
    stays in exactly one place, the stored form loses nothing, and scores never go down."""
    state = seated_game(players, seed=seed % 1000, target_score=20, policy="autoplay")
    bots = bots_for(state, seed)
    now, newcomers = NOW, 0
    for action in actions:
        if state.phase is Phase.FINISHED:
            break
        awaited = state.awaited()
        others_ = [p for p in state.player_ids if p != state.host_id]
        target = others_[action % len(others_)]
        move: Move | None = None
        if action <= 3 and awaited:
            pid = awaited[0]
            bots.setdefault(pid, RandomBot(pid, seed))
            move = bots[pid].choose(view_for(state, pid))
        elif action == 4:
            move = Vacation(target, 1 + action % 3)
        elif action == 5 and awaited:
            move = Extend(state.host_id, awaited[-1])
        elif action == 6:
            move = OfferSeat(state.host_id, target)
        elif action == 7:
            newcomers += 1
            move = Join(f"new{newcomers}", f"Newcomer {newcomers}")
        elif action == 8:
            move = RemovePlayer(state.host_id, target)
        before = state
        if move is None:
            now = max(now, state.deadline() or now)
            move = Timeout()
        try:
            state = act(state, move, now=now)
        except DixitError:
            continue
        now += 60
        assert card_places(state) == Counter(OFFICIAL_DECKS["base"].card_ids())
        assert GameState.from_json(state.to_json()) == state
        scores = {p.player_id: p.score for p in before.players}
        assert all(p.score >= scores.get(p.player_id, p.score) for p in state.players)
        assert len(state.players) >= 3
