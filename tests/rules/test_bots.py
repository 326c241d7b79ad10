"""Seeded RandomBots only ever choose legal moves, whatever the ruleset and the table size."""

from __future__ import annotations

import pytest

from dixit.bots import RandomBot, next_mover
from dixit.moves import GiveClue, Submit, Vote
from dixit.state import Phase
from dixit.views import view_for

from .helpers import apply, bot_game, bots_for, lobby, seated_game

TABLES = [("classic", n) for n in range(3, 7)] + [("odyssey", n) for n in range(3, 13)]


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_bots_only_choose_legal_moves_and_finish_the_game(rules: str, players: int) -> None:
    for bot_seed in range(3):
        state = seated_game(players, rules, seed=bot_seed)
        bots = bots_for(state, bot_seed)
        moves = 0
        while (mover := next_mover(state)) is not None:
            for pid, bot in bots.items():
                if pid != mover and pid not in view_for(state, pid).round.waiting_for:  # type: ignore[union-attr]
                    assert bot.choose(view_for(state, pid)) is None
            move = bots[mover].choose(view_for(state, mover))
            expected = {Phase.STORYTELLING: GiveClue, Phase.SUBMITTING: Submit, Phase.VOTING: Vote}[
                state.phase
            ]
            assert isinstance(move, expected)
            assert move.player_id == mover
            state = apply(state, move).state  # raises if the move is not legal
            moves += 1
        assert state.phase is Phase.FINISHED
        assert moves > 0


def test_bots_on_large_odyssey_tables_use_both_one_and_two_votes() -> None:
    counts = set()
    for state in bot_game(seated_game(9, "odyssey", seed=1), bot_seed=1):
        if state.round is not None:
            counts.update(len(v) for v in state.round.votes.values())
    assert counts == {1, 2}


def test_a_bot_has_nothing_to_do_in_the_lobby_as_a_spectator_or_after_the_end() -> None:
    bot = RandomBot("p1", seed=1)
    assert bot.choose(view_for(lobby(3), "p1")) is None
    state = seated_game(4, seed=1)
    assert RandomBot("stranger", seed=1).choose(view_for(state, "stranger")) is None
    final = bot_game(state, bot_seed=1)[-1]
    assert all(bot.choose(view_for(final, p)) is None for p, bot in bots_for(final, 1).items())
    assert next_mover(final) is None
