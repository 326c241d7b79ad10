"""What the live channel needs: a store of tickets, connections and watches, the socket that posts to a
connection, and the queue that carries a game's change to the sender.

`app.aws.dynamodb.live.DynamoLiveStore`, `app.aws.live_socket.ApiGatewayLiveSocket` and
`app.aws.sqs.SqsLiveQueue` are the adapters `app.bootstrap` builds; tests hand in tests/fakes/live.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Protocol

from app.games.ports import Games
from app.players.ports import AppGrantStore, PersonalTokenStore, SessionStore
from dixit.lean_dataclass import dataclass


@dataclass(frozen=True, slots=True)
class TicketHolder:
    """Who took a ticket, and with which credential: a session's id (`s_…`), a personal token's (`t_…`)
    or an app's grant's (`a_…`); the connection it opens stands on that credential."""

    player_id: str
    credential: str


class LiveStore(Protocol):
    """Tickets (by hash), connections (by id and by player) and watches (by game), each with a TTL."""

    def put_ticket(self, ticket_hash: str, player_id: str, *, credential: str, expires_at: int) -> None: ...

    def take_ticket(self, ticket_hash: str, *, now: int) -> TicketHolder | None:
        """Delete the ticket if it is there and unexpired (one conditional delete: single use); its holder."""
        ...

    def add_connection(
        self,
        connection_id: str,
        player_id: str,
        *,
        now: int,
        expires_at: int,
        most: int,
        credential: str = "",
    ) -> bool:
        """Record the connection, and the credential it was opened with, unless the player already
        holds `most` live ones; whether it was. A connection without a credential stands on none: the
        first revoke of any of the player's credentials forgets it."""
        ...

    def credentials_of(self, player_id: str, *, now: int) -> dict[str, str]:
        """The player's connections, each with the credential it was opened with ("" if unknown)."""
        ...

    def player_of(self, connection_id: str, *, now: int) -> str | None: ...

    def add_watch(
        self, connection_id: str, player_id: str, game_id: str, *, expires_at: int, most: int
    ) -> bool:
        """Watch `game_id` unless the connection already watches `most` other games; whether it does."""
        ...

    def remove_watch(self, connection_id: str, game_id: str) -> None: ...

    def forget(self, connection_id: str) -> None:
        """The connection, its watches and its place under its player: gone (idempotent)."""
        ...

    def watchers_with_players(self, game_id: str, *, now: int) -> dict[str, str]:
        """The connections watching the game, each with its player."""
        ...

    def connections_of(self, player_id: str, *, now: int) -> list[str]: ...


class Posted(StrEnum):
    SENT = "sent"
    GONE = "gone"  # the connection is closed (410): forget it
    FAILED = "failed"  # throttled, timed out, 5xx: the message is retried


class LiveSocket(Protocol):
    """PostToConnection: one attempt, a short timeout, so one dead connection holds up nobody."""

    def post(self, connection_id: str, data: bytes) -> Posted: ...


class LiveQueue(Protocol):
    def configured(self) -> bool: ...

    def send(self, bodies: Sequence[str]) -> list[str]:
        """Enqueue every body; the bodies refused."""
        ...


class Live(Protocol):
    """Tickets and connections."""

    live: LiveStore


class Connecting(Live, Protocol):
    """Opening a connection, and forgetting those of a revoked credential: the credentials a ticket may
    have been taken with (each read beside the player's profile)."""

    sessions: SessionStore
    personal_tokens: PersonalTokenStore
    app_grants: AppGrantStore


class Watching(Live, Games, Protocol):
    """Watching a game: the connection's store, and the game's stamp (who may read it)."""


class Telling(Live, Games, Protocol):
    """The sender: who watches, who may still read a private game (its stamp), and the socket."""

    live_socket: LiveSocket
