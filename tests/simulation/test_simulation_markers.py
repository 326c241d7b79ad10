"""The season counts what the game's own state marks: each autoplayed move, vacation, extension, offered
and taken seat once, when it first appears in a change."""

from __future__ import annotations

from collections import Counter

from dixit.moves import Extend, OfferSeat, TakeSeat, Timeout, Vacation
from dixit.state import GameState
from tests.rules.helpers import HOST, NOW, act, give_clue, others, seated_game, submit_all
from tests.simulation.markers import marks

TIMEOUT = 48 * 3600


def _game() -> GameState:
    return give_clue(seated_game(4, seed=4, target_score=200, policy="autoplay"))


def test_a_timed_out_submission_counts_as_one_autoplayed_move_and_not_again_on_later_changes() -> None:
    state = _game()
    silent = next(p for p in others(state) if p != HOST)
    waiting = submit_all(state, except_for=[silent])
    timed_out = act(waiting, Timeout(), now=waiting.deadline() or NOW)
    assert marks(waiting, timed_out) == Counter(autoplayed_submissions=1)
    voter = next(p for p in timed_out.awaited() if p != silent)
    assert marks(timed_out, act(timed_out, Extend(HOST if voter != HOST else silent, voter))) == Counter(
        extensions=1
    )


def test_a_vacation_counts_once_with_its_days() -> None:
    state = _game()
    player = others(state)[0]
    assert marks(state, act(state, Vacation(player, 3))) == Counter(vacations=1, vacation_days=3)


def test_an_offered_seat_and_the_newcomer_who_takes_it_are_counted() -> None:
    state = _game()
    silent = next(p for p in others(state) if p != HOST)
    waiting = submit_all(state, except_for=[silent])
    timed_out = act(waiting, Timeout(), now=waiting.deadline() or NOW)
    offered = act(timed_out, OfferSeat(HOST, silent), now=NOW + TIMEOUT)
    assert marks(timed_out, offered) == Counter(seats_offered=1)
    assert marks(offered, act(offered, TakeSeat("newbie", "Newcomer", silent))) == Counter(seats_taken=1)


def test_a_new_game_and_a_lobby_mark_nothing() -> None:
    started = seated_game(3)
    assert marks(None, started) == Counter()
