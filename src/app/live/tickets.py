"""Tickets: how a browser, which cannot set headers on a WebSocket, proves at `$connect` who it is.

A signed-in REST call (`POST /live/tickets`) gets a random ticket, stored only as its hash for
TICKET_SECONDS; the socket's `$connect` brings it as `?ticket=` and takes it with one conditional delete,
so a ticket opens one connection, once, within the minute. A leaked URL is worthless seconds later.
The ticket remembers the credential that took it (app.live.ports.TicketHolder): a connection stands on it.
"""

from __future__ import annotations

import hashlib
import secrets

from app.core.errors import NotAuthenticated
from app.live.ports import LiveStore, TicketHolder
from dixit.lean_dataclass import dataclass

TICKET_SECONDS = 30
_PREFIX = "lt_"


def ticket_hash(ticket: str) -> str:
    return hashlib.sha256(ticket.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Ticket:
    ticket: str
    expires_in: int


def issue_ticket(store: LiveStore, player_id: str, credential: str, *, now: int) -> Ticket:
    """A ticket for the player, taken with `credential` (the request's session, personal token or app
    grant id: `SignedIn.session_id`)."""
    ticket = _PREFIX + secrets.token_urlsafe(32)
    store.put_ticket(ticket_hash(ticket), player_id, credential=credential, expires_at=now + TICKET_SECONDS)
    return Ticket(ticket, TICKET_SECONDS)


def redeem_ticket(store: LiveStore, ticket: str | None, *, now: int) -> TicketHolder:
    """Who took the ticket, taking it; NotAuthenticated for a missing, unknown, used or expired one."""
    if not ticket or not ticket.startswith(_PREFIX) or len(ticket) > 100:
        raise NotAuthenticated("ticket_invalid", "connect with ?ticket= from POST /live/tickets")
    holder = store.take_ticket(ticket_hash(ticket), now=now)
    if holder is None:
        raise NotAuthenticated("ticket_invalid", "this ticket was used already, or has expired")
    return holder
