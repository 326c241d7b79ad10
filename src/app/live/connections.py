"""A connection's life: opened with a ticket (`$connect`), forgotten when it closes (`$disconnect`), when
a post finds it gone (410), or when the credential that took its ticket is revoked (`forget_revoked`).

Its items expire CONNECTION_SECONDS after it opened: API Gateway closes every WebSocket after two hours,
so an item whose `$disconnect` was lost cleans itself up, and nobody counts it after that.
"""

from __future__ import annotations

from app.core.errors import Forbidden, NotAuthenticated, StoreUnavailable
from app.core.telemetry import logger
from app.live.ports import Connecting, LiveStore
from app.live.tickets import redeem_ticket
from app.players.credential_ids import is_grant_id, is_session_id, is_token_id

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


def connect(ports: Connecting, connection_id: str, ticket: str | None, *, now: int) -> str:
    """The player the ticket names, with the connection recorded under them (and its credential).

    NotAuthenticated for a bad ticket, an account erased (`player_unknown`) or a credential revoked
    (`credential_revoked`) since the ticket was issued (it lives TICKET_SECONDS), TooManyConnections past
    the cap: either refuses the handshake.
    """
    store = ports.live
    holder = redeem_ticket(store, ticket, now=now)
    recorded = store.add_connection(
        connection_id,
        holder.player_id,
        credential=holder.credential,
        now=now,
        expires_at=now + CONNECTION_SECONDS,
        most=MOST_CONNECTIONS_PER_PLAYER,
    )
    if not recorded:
        raise TooManyConnections()
    # Looked up after the connection is recorded, not before: an erasure deletes the profile and then
    # forgets the account's connections (app.flows.erase_account), and a revoke deletes the credential
    # and then forgets its connections (forget_revoked), so either this finds it gone, or the
    # connection was recorded before that forgetting, which takes it.
    try:
        refused = refusal(ports, holder.player_id, holder.credential)
    except Exception:
        # The handshake fails, and no $disconnect will come for it: a connection left recorded would
        # hold one of the player's places until it expired.
        store.forget(connection_id)
        raise
    if refused is not None:
        store.forget(connection_id)
        raise refused
    return holder.player_id


def refusal(ports: Connecting, player_id: str, credential: str) -> NotAuthenticated | None:
    """None while `credential` still signs the player in; else why not (one read, with the profile)."""
    player: object
    held: object
    if is_token_id(credential):
        player, held = ports.personal_tokens.personal_token(player_id, credential)
    elif is_grant_id(credential):
        player, held = ports.app_grants.app_grant(player_id, credential)
    elif is_session_id(credential):
        player, session = ports.sessions.signed_in(player_id, credential)
        held = session if session is not None and session.token_hash else None
    else:
        # A connection recorded before connections named their credential: it stands on none.
        return NotAuthenticated("credential_revoked", "this connection names no credential")
    if player is None:
        return NotAuthenticated("player_unknown", "this ticket's account no longer exists")
    if held is None:
        return NotAuthenticated("credential_revoked", "the token this ticket was taken with was revoked")
    return None


def forget_revoked(ports: Connecting, player_id: str, *, now: int) -> list[str]:
    """Forget each of the player's connections whose credential was revoked (a session ended, a personal
    token or an app revoked): nothing reaches them any longer, and their next frame is told
    `connection_unknown`. Called after the revoke; best effort, as the revoke stands either way (a
    connection left behind expires with its item)."""
    forgotten: list[str] = []
    try:
        standing: dict[str, bool] = {}
        for connection, credential in ports.live.credentials_of(player_id, now=now).items():
            if credential not in standing:
                standing[credential] = refusal(ports, player_id, credential) is None
            if not standing[credential]:
                ports.live.forget(connection)
                forgotten.append(connection)
    except StoreUnavailable:
        logger.warning(
            "live connections of a revoked credential not forgotten", extra={"forgotten": forgotten}
        )
    return forgotten


def disconnect(store: LiveStore, connection_id: str) -> None:
    store.forget(connection_id)
