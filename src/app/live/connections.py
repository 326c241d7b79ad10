"""A connection's life: opened with a ticket (`$connect`), forgotten when it closes (`$disconnect`) or when
a post finds it gone (410).

Its items expire CONNECTION_SECONDS after it opened: API Gateway closes every WebSocket after two hours,
so an item whose `$disconnect` was lost cleans itself up, and nobody counts it after that.
"""

from __future__ import annotations

from app.core.errors import Forbidden, NotAuthenticated
from app.live.ports import LiveStore
from app.live.tickets import redeem_ticket
from app.players.ports import PlayerStore

# API Gateway's longest connection (2 h), and a little more: the item outlives the socket, never the reverse.
CONNECTION_SECONDS = 2 * 3600 + 300
# A player with more tabs and devices than this is flooding; each one would be told every change.
MOST_CONNECTIONS_PER_PLAYER = 10


class TooManyConnections(Forbidden):
    def __init__(self) -> None:
        super().__init__(
            "too_many_connections",
            f"at most {MOST_CONNECTIONS_PER_PLAYER} live connections per player; close one first",
        )


def connect(
    store: LiveStore, players: PlayerStore, connection_id: str, ticket: str | None, *, now: int
) -> str:
    """The player the ticket names, with the connection recorded under them.

    NotAuthenticated for a bad ticket or an account erased since the ticket was issued (it lives
    TICKET_SECONDS), TooManyConnections past the cap: either refuses the handshake.
    """
    player_id = redeem_ticket(store, ticket, now=now)
    recorded = store.add_connection(
        connection_id,
        player_id,
        now=now,
        expires_at=now + CONNECTION_SECONDS,
        most=MOST_CONNECTIONS_PER_PLAYER,
    )
    if not recorded:
        raise TooManyConnections()
    # Looked up after the connection is recorded, not before: an erasure deletes the profile and then
    # forgets the account's connections (app.flows.erase_account), so either this finds the profile
    # gone, or the connection was recorded before that forgetting, which takes it.
    try:
        known = players.get_player(player_id) is not None
    except Exception:
        # The handshake fails, and no $disconnect will come for it: a connection left recorded would
        # hold one of the player's places until it expired.
        store.forget(connection_id)
        raise
    if not known:
        store.forget(connection_id)
        raise NotAuthenticated("player_unknown", "this ticket's account no longer exists")
    return player_id


def disconnect(store: LiveStore, connection_id: str) -> None:
    store.forget(connection_id)
