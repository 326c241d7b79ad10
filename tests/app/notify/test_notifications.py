"""app.notify.messages: who hears about a change, decided from two game states alone."""

from __future__ import annotations

import itertools
import json

from app.notify.messages import Kind, Notification, changes, nudge, reminder, timeout
from dixit.moves import Submit
from dixit.state import GameState, Phase
from dixit.views import waiting_for
from tests.rules.helpers import (
    act,
    bot_game,
    give_clue,
    lobby,
    others,
    play_round,
    seated_game,
    storyteller,
    submission_size,
)
from tests.rules.test_timeouts import silent_twice


def number(state: GameState) -> int | None:
    return None if state.round is None else state.round.number


def kinds_by_player(found: list[Notification]) -> list[tuple[str, str]]:
    return [(n.kind.value, n.player_id) for n in found]


def test_a_new_game_and_a_joining_player_notify_nobody() -> None:
    before = lobby(2)
    after = lobby(3)
    assert changes(None, before) == []
    assert changes(before, after) == []


def test_dealing_the_cards_tells_the_first_storyteller_it_is_their_turn() -> None:
    state = seated_game(4)
    found = changes(lobby(4), state)
    assert kinds_by_player(found) == [("your_turn", storyteller(state))]
    assert found[0].phase == "storytelling"
    assert found[0].round_number == 1


def test_a_clue_tells_every_other_player_to_submit() -> None:
    before = seated_game(4)
    after = give_clue(before)
    assert kinds_by_player(changes(before, after)) == [("your_turn", p) for p in others(after)]


def test_a_submission_that_leaves_others_waiting_tells_nobody_new() -> None:
    before = give_clue(seated_game(4))
    first = others(before)[0]
    after = act(before, Submit(first, tuple(before.hands[first][: submission_size(before)])))
    assert after.phase is Phase.SUBMITTING
    assert changes(before, after) == []


def test_the_last_submission_tells_every_voter_even_those_who_just_owed_a_card() -> None:
    before = give_clue(seated_game(4))
    for player in others(before)[:-1]:
        before = act(before, Submit(player, tuple(before.hands[player][:1])))
    last = others(before)[-1]
    after = act(before, Submit(last, tuple(before.hands[last][:1])))
    assert after.phase is Phase.VOTING
    assert {n.player_id for n in changes(before, after)} == set(others(after))
    assert {n.kind for n in changes(before, after)} == {Kind.YOUR_TURN}


def test_a_rewrite_that_changes_nobody_owing_a_move_tells_nobody() -> None:
    state = give_clue(seated_game(4))
    assert changes(state, state.copy()) == []


def test_a_deleted_game_tells_nobody() -> None:
    assert changes(seated_game(3), None) == []


def test_the_end_of_a_game_tells_every_player_once() -> None:
    states = bot_game(seated_game(3, target_score=1), bot_seed=7)
    last, final = states[-2], states[-1]
    assert final.phase is Phase.FINISHED
    over = [n for n in changes(last, final) if n.kind is Kind.GAME_OVER]
    assert sorted(n.player_id for n in over) == sorted(final.player_ids)
    assert changes(final, final.copy()) == []


def test_every_move_of_a_whole_game_tells_exactly_those_who_newly_owe_a_move() -> None:
    states = bot_game(seated_game(5, seed=3), bot_seed=11)
    for before, after in itertools.pairwise(states):
        told = {n.player_id for n in changes(before, after) if n.kind is Kind.YOUR_TURN}
        moved_on = (after.phase, number(after)) != (before.phase, number(before))
        assert told == (set(waiting_for(after)) if moved_on else set())


def test_a_clue_also_tells_an_away_player_that_the_round_would_take_their_card() -> None:
    state, silent = silent_twice(seated_game(5, seed=3))
    after = give_clue(state)
    told = {n.player_id for n in changes(state, after) if n.kind is Kind.YOUR_TURN}
    assert told == {*waiting_for(after), silent}
    assert silent not in waiting_for(after)


def test_the_body_carries_the_path_and_a_dedupe_id_and_nothing_from_a_hand_or_the_clue() -> None:
    before = seated_game(4)
    after = give_clue(before, clue="a secret clue")
    told = changes(before, after)
    assert len(told) == 3  # the three who now owe a card
    for notification in told:
        text = notification.to_json()
        body = json.loads(text)
        assert body["path"] == f"/games/{after.game_id}"
        assert body["dedupe_id"] == f"{after.game_id}:{notification.player_id}:{after.version}:your_turn"
        assert "a secret clue" not in text
        for cards in after.hands.values():
            assert not any(card in text for card in cards)


def test_reminders_timeouts_and_nudges_are_deduplicated_by_their_deadline_or_time() -> None:
    state = play_round(seated_game(3))
    player = waiting_for(state)[0]
    assert reminder(state, player, "2026-12-01T10:00:00+00:00").dedupe_id.endswith(
        ":2026-12-01T10:00:00+00:00:reminder"
    )
    assert timeout(state, player, "2026-12-02T10:00:00+00:00").kind is Kind.TIMEOUT
    hand_nudge = nudge(state, player, by="p9", at="2026-12-01T09:00:00+00:00")
    assert hand_nudge.kind is Kind.REMINDER
    assert hand_nudge.body()["nudged_by"] == "p9"
