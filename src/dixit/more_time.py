"""Moves that give a player more time: a vacation stops one's own deadlines, an extension lengthens
another player's owed move."""

from __future__ import annotations

from dixit.errors import IllegalMoveError
from dixit.guards import IN_PLAY, current_round, require_member, require_phase
from dixit.limits import EXTENSION_SECONDS
from dixit.moves import Extend, Vacation
from dixit.state import GameState

DAY = 24 * 3600


def vacation(state: GameState, move: Vacation, now: int) -> None:
    require_phase(state, *IN_PLAY)
    player = require_member(state, move.player_id)
    if player.on_vacation(now):
        raise IllegalMoveError("already_on_vacation", "you are already on vacation")
    rnd = current_round(state)
    if player.vacation_until > rnd.since:
        # The last vacation still pushes this move's deadline; a new one would replace that pause.
        raise IllegalMoveError("vacation_this_turn", "you were already on vacation during this move")
    left = state.settings.vacation_days - player.vacation_days_used
    if move.days > left:
        raise IllegalMoveError(
            "no_vacation_days_left",
            f"{left} of this game's {state.settings.vacation_days} vacation days are left",
        )
    player.vacation_start, player.vacation_until = now, now + move.days * DAY
    player.vacation_days_used += move.days


def extend(state: GameState, move: Extend, now: int) -> None:
    require_phase(state, *IN_PLAY)
    require_member(state, move.player_id)
    rnd = current_round(state)
    if move.for_id not in state.awaited():
        raise IllegalMoveError("not_awaited", "the game is not waiting on that player")
    if move.for_id == move.player_id:
        raise IllegalMoveError("own_move", "an extension is given to someone else")
    if move.for_id in rnd.extended:
        raise IllegalMoveError("already_extended", "that move was already extended once")
    if state.deadline_of(move.for_id) <= now:
        raise IllegalMoveError("deadline_passed", "that move has already timed out")
    rnd.extended[move.for_id] = EXTENSION_SECONDS
