"""Deleting an account (`DELETE /players/me`): what goes, what stays, and in which order.

- **Games first**, while the inbox still names them. A lobby is left with the Leave move; a started or
  finished game keeps the seat, renamed "Deleted player" (`dixit.engine.forget_player`): there is no
  leaving a started game, and a finished one keeps every result whole. Both go through
  `app.games.play.apply_move`, conditionally, like any move. A started game's turns for that seat are
  then the timeout policy's to handle (no token can act for it again).
- **Push endpoints** next, through the push channel (deleting one that is gone succeeds).
- **The partition last** (`PlayerStore.delete_player_data`): memberships, history, devices, mutes,
  webhooks, the email ownership item, and then sessions and profile together. Until that last step
  the caller's token still works, so a delete cut short (a timeout, a lost answer, a store fault)
  is retried with the same token and picks up where it stopped: renamed games are skipped.

Not deleted, because they are not the player's alone or expire by themselves: the games (other players'
results), other players' feed copies and idempotency records (TTL), this player's feed copies in their
games (they expire with the game's feed, `FEED_TTL_AFTER_END_SECONDS` after it ends), and their
webhooks' delivery attempts (TTL, `WEBHOOK_ATTEMPT_TTL_SECONDS`).
"""

from __future__ import annotations

from app.account.data import game_ids_of
from app.core.errors import NotFound, StoreUnavailable
from app.core.records import GameRecord
from app.core.telemetry import count, logger
from app.games import due_index
from app.games import play as games
from app.games.play import ATTEMPT_RESERVE, Step
from app.players.accounts import SignedIn
from app.services import Services
from dixit.engine import DELETED_PLAYER_NAME, Applied, forget_player
from dixit.errors import IllegalMoveError
from dixit.moves import Leave
from dixit.state import Phase


def erase(services: Services, signed: SignedIn) -> None:
    """Erase the caller's account: afterwards every one of their tokens is a 401."""
    player = signed.player
    active, finished = game_ids_of(services, player.player_id)
    for game_id in [*active, *finished]:
        if services.deadline.remaining() < ATTEMPT_RESERVE:
            # A long history: what is done stays done, and a retry (same token) carries on from here.
            raise StoreUnavailable("deleting your account takes longer: send the same request again")
        _leave_game(services, signed, game_id)
    for device in services.notifications.devices(player.player_id):
        services.push.delete_endpoint(device.endpoint_arn)
    # The digest index entry lives under its hour's key, not in the partition: it goes first, by pointer.
    services.digests.remove_digest(player.player_id)
    erased = services.players.delete_player_data(player.player_id)
    count("AccountsDeleted")
    logger.info("account deleted", extra={"games": len(active) + len(finished), "items": erased})


def _leave_game(services: Services, signed: SignedIn, game_id: str) -> None:
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
