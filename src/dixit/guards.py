"""What moves check of the game before anything else: its phase, the mover's seat, the round in play."""

from __future__ import annotations

from dixit.errors import IllegalMoveError
from dixit.state import GameState, Phase, Player, Round

IN_PLAY = (Phase.STORYTELLING, Phase.SUBMITTING, Phase.VOTING)


def require_phase(state: GameState, *phases: Phase) -> None:
    if state.phase not in phases:
        if state.phase is Phase.FINISHED:
            raise IllegalMoveError("game_finished", "the game is over")
        if Phase.LOBBY in phases:
            raise IllegalMoveError("game_started", "the game has already started")
        wanted = " or ".join(p.value for p in phases)
        raise IllegalMoveError("wrong_phase", f"the game is in {state.phase.value}, not {wanted}")


def require_member(state: GameState, player_id: str) -> Player:
    player = state.player(player_id)
    if player is None:
        raise IllegalMoveError("not_a_player", "you are not seated in this game")
    return player


def require_newcomer(state: GameState, player_id: str) -> None:
    if state.player(player_id) is not None:
        raise IllegalMoveError("already_joined", "you are already seated in this game")


def current_round(state: GameState) -> Round:
    assert state.round is not None, "a game past the lobby always has a round"
    return state.round
