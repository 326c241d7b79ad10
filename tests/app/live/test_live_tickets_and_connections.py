"""Tickets and connections: a ticket opens one connection, once, within its time, for an account that
still exists; a player holds a bounded number of connections; a closed one is forgotten."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.core.errors import NotAuthenticated, StoreUnavailable
from app.core.records import PlayerRecord
from app.live import connections
from app.live.connections import MOST_CONNECTIONS_PER_PLAYER, TooManyConnections
from app.live.ports import LiveStore
from app.live.tickets import TICKET_SECONDS, Ticket, ticket_hash
from app.live.tickets import issue_ticket as issue
from app.players.ports import SessionRecord
from app.services import Services
from tests.fakes.live import MemoryLiveStore
from tests.fakes.players import MemoryPlayerStore
from tests.fakes.sessions import MemorySessionStore
from tests.support.services import memory_services

T0 = 1_780_000_000
_WHEN = "2026-01-01T00:00:00Z"


def session_of(player_id: str) -> str:
    """The player's one session id, shaped as real ones are (s_ and 16 hex digits)."""
    return "s_" + player_id[2:].encode().hex().ljust(16, "0")[:16]


def signed_up(*player_ids: str, players: MemoryPlayerStore | None = None) -> Services:
    """Services over memory, where each player has a profile and a session (`session_of`)."""
    players = players if players is not None else MemoryPlayerStore()
    sessions = MemorySessionStore(players)
    for player_id in player_ids:
        players.create_player(PlayerRecord(player_id, player_id[2:].title(), "", _WHEN))
        session = SessionRecord(player_id, session_of(player_id), "phone", "hash", _WHEN, _WHEN, _WHEN)
        sessions.create_session(session)
    return memory_services(players=players, sessions=sessions, live=MemoryLiveStore())


PLAYERS = signed_up("p_ada", "p_bob")


def issue_ticket(store: LiveStore, player_id: str, *, now: int) -> Ticket:
    """A ticket taken with the player's session."""
    return issue(store, player_id, session_of(player_id), now=now)


def connect(
    store: MemoryLiveStore, connection: str, ticket: str | None, *, now: int, services: Services = PLAYERS
) -> str:
    return connections.connect(replace(services, live=store), connection, ticket, now=now)


def test_a_ticket_is_stored_only_as_its_hash_and_opens_one_connection_once() -> None:
    store = MemoryLiveStore()
    issued = issue_ticket(store, "p_ada", now=T0)
    assert issued.expires_in == TICKET_SECONDS <= 60
    assert issued.ticket not in store.tickets
    assert list(store.tickets) == [ticket_hash(issued.ticket)]
    assert connect(store, "c1", issued.ticket, now=T0 + 1) == "p_ada"
    assert store.connections_of("p_ada", now=T0 + 1) == ["c1"]
    with pytest.raises(NotAuthenticated) as replayed:
        connect(store, "c2", issued.ticket, now=T0 + 2)
    assert replayed.value.code == "ticket_invalid"
    assert store.connections_of("p_ada", now=T0 + 2) == ["c1"]


@pytest.mark.parametrize("ticket", [None, "", "nonsense", "lt_" + "x" * 200, "lt_neverissued"])
def test_a_missing_or_unknown_ticket_opens_nothing(ticket: str | None) -> None:
    store = MemoryLiveStore()
    with pytest.raises(NotAuthenticated):
        connect(store, "c1", ticket, now=T0)
    assert store.connections == {}


def test_an_expired_ticket_opens_nothing() -> None:
    store = MemoryLiveStore()
    issued = issue_ticket(store, "p_ada", now=T0)
    with pytest.raises(NotAuthenticated):
        connect(store, "c1", issued.ticket, now=T0 + TICKET_SECONDS)


def test_a_ticket_of_an_account_erased_since_opens_nothing() -> None:
    store, players = MemoryLiveStore(), signed_up()
    issued = issue_ticket(store, "p_gone", now=T0)  # issued, then the account erased within its 30 s
    with pytest.raises(NotAuthenticated) as refused:
        connect(store, "c1", issued.ticket, now=T0 + 1, services=players)
    assert refused.value.code == "player_unknown"
    assert store.connections == {}
    assert store.connections_of("p_gone", now=T0 + 1) == []


def test_a_handshake_that_fails_on_the_credentials_read_leaves_no_connection_behind() -> None:
    class Unavailable(MemorySessionStore):
        def signed_in(self, player_id: str, session_id: str) -> tuple[None, None]:
            raise StoreUnavailable()

    store = MemoryLiveStore()
    issued = issue_ticket(store, "p_ada", now=T0)
    with pytest.raises(StoreUnavailable):
        connect(
            store,
            "c1",
            issued.ticket,
            now=T0,
            services=replace(PLAYERS, sessions=Unavailable(MemoryPlayerStore())),
        )
    # No $disconnect comes for a refused handshake: a place held here would count against the cap.
    assert store.connections_of("p_ada", now=T0) == []


def test_a_player_holds_a_bounded_number_of_connections() -> None:
    store = MemoryLiveStore()
    for n in range(MOST_CONNECTIONS_PER_PLAYER):
        connect(store, f"c{n}", issue_ticket(store, "p_ada", now=T0).ticket, now=T0)
    with pytest.raises(TooManyConnections):
        connect(store, "c_more", issue_ticket(store, "p_ada", now=T0).ticket, now=T0)
    # Another player is not held back; and a closed connection frees a place.
    assert connect(store, "c_bob", issue_ticket(store, "p_bob", now=T0).ticket, now=T0) == "p_bob"
    connections.disconnect(store, "c0")
    assert connect(store, "c_more", issue_ticket(store, "p_ada", now=T0).ticket, now=T0) == "p_ada"


def test_a_connection_outlives_api_gateways_two_hours_then_expires() -> None:
    store = MemoryLiveStore()
    connect(store, "c1", issue_ticket(store, "p_ada", now=T0).ticket, now=T0)
    assert store.player_of("c1", now=T0 + 2 * 3600) == "p_ada"
    assert store.player_of("c1", now=T0 + connections.CONNECTION_SECONDS) is None
