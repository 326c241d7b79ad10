"""The live channel's ports in memory: the store (tickets, connections, watches, with expiry as the
adapter reads it), the queue, and a socket that records posts and answers as it is told."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from app.live.ports import Posted, TicketHolder


@dataclass
class _Connection:
    player_id: str
    expires_at: int
    watches: set[str] = field(default_factory=set)
    credential: str = ""


class MemoryLiveStore:
    """Implements app.live.ports.LiveStore."""

    def __init__(self) -> None:
        self.tickets: dict[str, tuple[TicketHolder, int]] = {}
        self.connections: dict[str, _Connection] = {}
        self.watch_expiry: dict[tuple[str, str], int] = {}  # (game, connection) -> expires_at

    def put_ticket(self, ticket_hash: str, player_id: str, *, credential: str, expires_at: int) -> None:
        self.tickets[ticket_hash] = (TicketHolder(player_id, credential), expires_at)

    def take_ticket(self, ticket_hash: str, *, now: int) -> TicketHolder | None:
        found = self.tickets.get(ticket_hash)
        if found is None or found[1] <= now:
            return None
        del self.tickets[ticket_hash]
        return found[0]

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
        if len(self.connections_of(player_id, now=now)) >= most:
            return False
        self.connections[connection_id] = _Connection(player_id, expires_at, credential=credential)
        return True

    def credentials_of(self, player_id: str, *, now: int) -> dict[str, str]:
        return {c: self.connections[c].credential for c in self.connections_of(player_id, now=now)}

    def player_of(self, connection_id: str, *, now: int) -> str | None:
        found = self.connections.get(connection_id)
        return None if found is None or found.expires_at <= now else found.player_id

    def add_watch(
        self, connection_id: str, player_id: str, game_id: str, *, expires_at: int, most: int
    ) -> bool:
        found = self.connections.get(connection_id)
        if found is None or (game_id not in found.watches and len(found.watches) >= most):
            return False
        found.watches.add(game_id)
        self.watch_expiry[(game_id, connection_id)] = expires_at
        return True

    def remove_watch(self, connection_id: str, game_id: str) -> None:
        self.watch_expiry.pop((game_id, connection_id), None)
        found = self.connections.get(connection_id)
        if found is not None:
            found.watches.discard(game_id)

    def forget(self, connection_id: str) -> None:
        found = self.connections.pop(connection_id, None)
        if found is not None:
            for game_id in found.watches:
                self.watch_expiry.pop((game_id, connection_id), None)

    def watchers_with_players(self, game_id: str, *, now: int) -> dict[str, str]:
        watching = sorted(c for (g, c), until in self.watch_expiry.items() if g == game_id and until > now)
        return {c: self.connections[c].player_id for c in watching if c in self.connections}

    def connections_of(self, player_id: str, *, now: int) -> list[str]:
        return sorted(
            c
            for c, found in self.connections.items()
            if found.player_id == player_id and found.expires_at > now
        )


class MemoryLiveQueue:
    """Implements app.live.ports.LiveQueue."""

    def __init__(self, *, configured: bool = True) -> None:
        self.sent: list[str] = []
        self.refuse_all = False
        self._configured = configured

    def configured(self) -> bool:
        return self._configured

    def send(self, bodies: Sequence[str]) -> list[str]:
        if self.refuse_all:
            return list(bodies)
        self.sent += bodies
        return []


class RecordingLiveSocket:
    """Implements app.live.ports.LiveSocket: records each post; `answers` says how a connection answers."""

    def __init__(self) -> None:
        self.posts: list[tuple[str, bytes]] = []
        self.answers: dict[str, Posted] = {}

    def post(self, connection_id: str, data: bytes) -> Posted:
        self.posts.append((connection_id, data))
        return self.answers.get(connection_id, Posted.SENT)
