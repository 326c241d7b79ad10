"""How an erased account leaves its games (what else goes, and the order: app.flows.erase_account).

A lobby is left with the Leave move; a started or finished game keeps the seat, renamed "Deleted
player" (`dixit.engine.forget_player`): there is no leaving a started game, and a finished one keeps
every result whole. Both go through `app.games.play.apply_move`, conditionally, like any move. A started
game's turns for that seat are then the timeout policy's to handle (no token can act for it again).
"""

from __future__ import annotations

from app.core.errors import NotFound
from app.core.records import GameRecord
from app.games import due_index
from app.games import play as games
from app.games.play import Step
from app.games.ports import Playing
from app.players.accounts import SignedIn
from dixit.engine import DELETED_PLAYER_NAME, Applied, forget_player
from dixit.errors import IllegalMoveError
from dixit.moves import Leave
from dixit.state import Phase


def leave_game(services: Playing, signed: SignedIn, game_id: str) -> None:
    """Leave a lobby; anywhere else, rename the seat (nothing when it is gone or renamed already)."""
    player_id = signed.player.player_id
    try:
        record = games.load_game(services, game_id)
    except NotFound:
        return
    if record.state.phase is Phase.LOBBY and record.state.player(player_id) is not None:
        try:
            games.play(services, signed.player, game_id, Leave(player_id))
            return
        except IllegalMoveError:
            pass  # started meanwhile (or left already): the seat is renamed below, if it is still there

    def judge(current: GameRecord) -> Step | None:
        seat = current.state.player(player_id)
        # Nothing to do: not seated, renamed already, or a lobby (left above, never renamed).
        if seat is None or seat.name == DELETED_PLAYER_NAME or current.state.phase is Phase.LOBBY:
            return None
        forgotten = forget_player(current.state, player_id)
        # The seat is moved on at its deadline whatever the policy: under `wait` the game may have had no
        # due entry, and a deadline already past is due now.
        return Step(Applied(forgotten), due_index.after_move(current, forgotten, services.now_epoch()))

    games.apply_move(services, game_id, judge)
