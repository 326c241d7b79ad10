"""Keeping a game's seats' quiet hours in step with their players' preferences."""

from __future__ import annotations

from dixit.quiet_hours import SeatQuiet
from dixit.state import GameState


def with_seat_quiet(state: GameState, player_id: str, quiet: SeatQuiet | None) -> GameState | None:
    """The game with `player_id`'s seat keeping `quiet` (None: no quiet hours); None when nothing changes.

    The version moves on, as after any write others must see: the deadlines they are shown may move.
    Nothing else changes, so the same owed moves are owed and nobody hears about it.
    """
    if state.player(player_id) is None or state.quiet.get(player_id) == quiet:
        return None
    new = state.copy()
    if quiet is None:
        del new.quiet[player_id]
    else:
        new.quiet[player_id] = quiet
    new.version += 1
    return new
