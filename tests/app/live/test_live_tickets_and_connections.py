"""Tickets and connections: a ticket opens one connection, once, within its time, for an account that
still exists; a player holds a bounded number of connections; a closed one is forgotten."""

from __future__ import annotations

import pytest

from app.core.errors import NotAuthenticated, StoreUnavailable
from app.core.records import PlayerRecord
from app.live import connections
from app.live.connections import MOST_CONNECTIONS_PER_PLAYER, TooManyConnections
from app.live.tickets import TICKET_SECONDS, issue_ticket, ticket_hash
from tests.fakes.live import MemoryLiveStore
from tests.fakes.players import MemoryPlayerStore

T0 = 1_780_000_000
PLAYERS = MemoryPlayerStore()
for _id in ("p_ada", "p_bob"):
    PLAYERS.create_player(PlayerRecord(_id, _id[2:].title(), "", "2026-01-01T00:00:00Z"))


def test_a_ticket_is_stored_only_as_its_hash_and_opens_one_connection_once() -> None:
    store = MemoryLiveStore()
    issued = issue_ticket(store, "p_ada", now=T0)
    assert issued.expires_in == TICKET_SECONDS <= 60
    assert issued.ticket not in store.tickets
    assert list(store.tickets) == [ticket_hash(issued.ticket)]
    assert connections.connect(store, PLAYERS, "c1", issued.ticket, now=T0 + 1) == "p_ada"
    assert store.connections_of("p_ada", now=T0 + 1) == ["c1"]
    with pytest.raises(NotAuthenticated) as replayed:
        connections.connect(store, PLAYERS, "c2", issued.ticket, now=T0 + 2)
    assert replayed.value.code == "ticket_invalid"
    assert store.connections_of("p_ada", now=T0 + 2) == ["c1"]


@pytest.mark.parametrize("ticket", [None, "", "nonsense", "lt_" + "x" * 200, "lt_neverissued"])
def test_a_missing_or_unknown_ticket_opens_nothing(ticket: str | None) -> None:
    store = MemoryLiveStore()
    with pytest.raises(NotAuthenticated):
        connections.connect(store, PLAYERS, "c1", ticket, now=T0)
    assert store.connections == {}


def test_an_expired_ticket_opens_nothing() -> None:
    store = MemoryLiveStore()
    issued = issue_ticket(store, "p_ada", now=T0)
    with pytest.raises(NotAuthenticated):
        connections.connect(store, PLAYERS, "c1", issued.ticket, now=T0 + TICKET_SECONDS)


def test_a_ticket_of_an_account_erased_since_opens_nothing() -> None:
    store, players = MemoryLiveStore(), MemoryPlayerStore()
    issued = issue_ticket(store, "p_gone", now=T0)  # issued, then the account erased within its 30 s
    with pytest.raises(NotAuthenticated) as refused:
        connections.connect(store, players, "c1", issued.ticket, now=T0 + 1)
    assert refused.value.code == "player_unknown"
    assert store.connections == {}
    assert store.connections_of("p_gone", now=T0 + 1) == []


def test_a_handshake_that_fails_on_the_profiles_read_leaves_no_connection_behind() -> None:
    class Unavailable(MemoryPlayerStore):
        def get_player(self, player_id: str) -> PlayerRecord | None:
            raise StoreUnavailable()

    store = MemoryLiveStore()
    issued = issue_ticket(store, "p_ada", now=T0)
    with pytest.raises(StoreUnavailable):
        connections.connect(store, Unavailable(), "c1", issued.ticket, now=T0)
    # No $disconnect comes for a refused handshake: a place held here would count against the cap.
    assert store.connections_of("p_ada", now=T0) == []


def test_a_player_holds_a_bounded_number_of_connections() -> None:
    store = MemoryLiveStore()
    for n in range(MOST_CONNECTIONS_PER_PLAYER):
        connections.connect(store, PLAYERS, f"c{n}", issue_ticket(store, "p_ada", now=T0).ticket, now=T0)
    with pytest.raises(TooManyConnections):
        connections.connect(store, PLAYERS, "c_more", issue_ticket(store, "p_ada", now=T0).ticket, now=T0)
    # Another player is not held back; and a closed connection frees a place.
    assert (
        connections.connect(store, PLAYERS, "c_bob", issue_ticket(store, "p_bob", now=T0).ticket, now=T0)
        == "p_bob"
    )
    connections.disconnect(store, "c0")
    assert (
        connections.connect(store, PLAYERS, "c_more", issue_ticket(store, "p_ada", now=T0).ticket, now=T0)
        == "p_ada"
    )


def test_a_connection_outlives_api_gateways_two_hours_then_expires() -> None:
    store = MemoryLiveStore()
    connections.connect(store, PLAYERS, "c1", issue_ticket(store, "p_ada", now=T0).ticket, now=T0)
    assert store.player_of("c1", now=T0 + 2 * 3600) == "p_ada"
    assert store.player_of("c1", now=T0 + connections.CONNECTION_SECONDS) is None
