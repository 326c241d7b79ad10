"""Deleting an account (`DELETE /players/me`): what goes, and in which order, across the features.

- **Games first**, while the inbox still names them: each is left or its seat renamed, the account's
  own business (app.account.erase.leave_game), through the move path like any move.
- **What they said at the tables** next: each message's text removed and its author renamed as their
  seats are (`TalkStore.erase_messages_by`, found through the `TALKED#` pointers in their partition, so
  before it goes); the messages keep their places, so the talk around them still reads in order.
- **Live connections** next: each of the account's open sockets is forgotten with its watches, so no
  change of any game reaches it any longer (`LiveStore.forget`; the socket itself stays open until the
  client or API Gateway closes it, hearing nothing, and a frame it sends names no player). Once more
  after the partition is gone, for a socket opened meanwhile with a ticket issued before (a ticket
  lives 30 s); from then on a ticket opens nothing, since `$connect` finds no profile.
- **Push endpoints** next, through the push channel (deleting one that is gone succeeds).
- **The digest index entry**, which lives under its hour's key, not in the partition (by its pointer).
- **The partition last** (`PlayerStore.delete_player_data`): memberships, history, personal tokens,
  devices, mutes, webhooks, the email ownership item, and then sessions and profile together. Until
  that last step the caller's session token still works, so a delete cut short (a timeout, a lost
  answer, a store fault) is retried with the same token and picks up where it stopped: renamed games
  are skipped. A lost answer of that last step itself leaves nothing to recognise the token by: the
  retry is a 401 `invalid_token`, which (docs/accounts.md) tells the client the erasure finished.

Not deleted, because they are not the player's alone or expire by themselves: the games (other players'
results), other players' feed copies and idempotency records (TTL), this player's feed copies in their
games (they expire with the game's feed, `FEED_TTL_AFTER_END_SECONDS` after it ends), and their
webhooks' delivery attempts (TTL, `WEBHOOK_ATTEMPT_TTL_SECONDS`); their messages' places at the tables
(id, round, phase, time: no words, no name), which expire with the game's talk.
"""

from __future__ import annotations

from app.account.data import game_ids_of
from app.account.erase import leave_game
from app.core.errors import StoreUnavailable
from app.core.telemetry import count, logger
from app.flows.bundles import ErasePorts
from app.games.play import ATTEMPT_RESERVE
from app.players.accounts import SignedIn
from dixit.engine import DELETED_PLAYER_NAME


def erase_account(ports: ErasePorts, signed: SignedIn) -> None:
    """Erase the caller's account: afterwards every one of their tokens is a 401."""
    player = signed.player
    active, finished = game_ids_of(ports, player.player_id)
    for game_id in [*active, *finished]:
        if ports.deadline.remaining() < ATTEMPT_RESERVE:
            # A long history: what is done stays done, and a retry (same token) carries on from here.
            raise StoreUnavailable("deleting your account takes longer: send the same request again")
        leave_game(ports, signed, game_id)
    erased_messages = ports.talk.erase_messages_by(player.player_id, name=DELETED_PLAYER_NAME)
    connections = _forget_connections(ports, player.player_id)
    for device in ports.notifications.devices(player.player_id):
        ports.push.delete_endpoint(device.endpoint_arn)
    ports.digests.remove_digest(player.player_id)
    erased = ports.players.delete_player_data(player.player_id)
    try:
        late = _forget_connections(ports, player.player_id)
    except StoreUnavailable:
        # The account is gone: a retry would be a 401. A socket left behind expires with its item.
        logger.warning("connections opened during the delete not forgotten")
        late = []
    count("AccountsDeleted")
    logger.info(
        "account deleted",
        extra={
            "games": len(active) + len(finished),
            "items": erased,
            "messages_erased": erased_messages,
            "connections_forgotten": len(connections) + len(late),
        },
    )


def _forget_connections(ports: ErasePorts, player_id: str) -> list[str]:
    connections = ports.live.connections_of(player_id, now=ports.now_epoch())
    for connection in connections:
        ports.live.forget(connection)
    return connections
