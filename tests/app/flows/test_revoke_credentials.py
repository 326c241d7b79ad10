"""Each way of taking back a credential forgets the live connections it opened, and no other: the flow
(app.flows.revoke_credentials) the routes call, against the memory doubles."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from app.flows import revoke_credentials
from app.live import connections
from app.live.tickets import issue_ticket
from app.oauth.errors import OAuthRefused
from app.players import accounts, personal_tokens
from app.players.accounts import SignedIn
from app.services import Services
from tests.support.services import memory_services


def _open(services: Services, signed: SignedIn, connection: str) -> None:
    now = services.now_epoch()  # the flow forgets by the services' clock, as the routes' does
    ticket = issue_ticket(services.live, signed.player.player_id, signed.session_id, now=now).ticket
    connections.connect(services, connection, ticket, now=now)


def _two_credentials(services: Services) -> tuple[SignedIn, SignedIn, SignedIn]:
    """A player's own session, a second device's and a personal token's, each with a socket open."""
    _, token = accounts.register(services, "Ada")
    here = accounts.authenticate(services, f"Bearer {token}")
    _, other = accounts.open_session(services, here.player, "phone")
    there = accounts.authenticate(services, f"Bearer {other}")
    _, bot_token = personal_tokens.create(services, here, "bot", ["games:read"])
    bot = accounts.authenticate(services, f"Bearer {bot_token}")
    for connection, signed in (("c_here", here), ("c_there", there), ("c_bot", bot)):
        _open(services, signed, connection)
    return here, there, bot


Revoke = Callable[[Services, SignedIn, SignedIn, SignedIn], None]


def _current(s: Services, here: SignedIn, there: SignedIn, bot: SignedIn) -> None:
    revoke_credentials.revoke_token(s, here)


def _another(s: Services, here: SignedIn, there: SignedIn, bot: SignedIn) -> None:
    revoke_credentials.end_session(s, here, there.session_id)


def _others(s: Services, here: SignedIn, there: SignedIn, bot: SignedIn) -> None:
    revoke_credentials.end_other_sessions(s, here)


def _token(s: Services, here: SignedIn, there: SignedIn, bot: SignedIn) -> None:
    revoke_credentials.revoke_personal_token(s, here, bot.session_id)


# What each revoke takes back, and the connections left open after it.
CASES: dict[str, tuple[Revoke, list[str]]] = {
    "the current session": (_current, ["c_bot", "c_there"]),
    "another device": (_another, ["c_bot", "c_here"]),
    "every other device": (_others, ["c_bot", "c_here"]),
    "a personal token": (_token, ["c_here", "c_there"]),
}


@pytest.mark.parametrize("case", CASES)
def test_a_revoke_forgets_the_sockets_of_what_it_took_back_and_no_other(case: str) -> None:
    revoke, left = CASES[case]
    services = memory_services()
    here, there, bot = _two_credentials(services)
    revoke(services, here, there, bot)
    assert sorted(services.live.connections_of(here.player.player_id, now=services.now_epoch())) == left


def test_a_replayed_refresh_token_forgets_the_sockets_its_app_opened() -> None:
    from tests.app.oauth.test_oauth_flow import CLIENT, _code, _exchange

    services = memory_services()
    _, token = accounts.register(services, "Ada")
    here = accounts.authenticate(services, f"Bearer {token}")
    first = _exchange(services, _code(services, here))
    app = accounts.authenticate(services, f"Bearer {first.access_token}")
    _open(services, here, "c_here")
    _open(services, app, "c_app")
    refresh = {"grant_type": "refresh_token", "client_id": CLIENT}
    revoke_credentials.issue_app_token(services, {**refresh, "refresh_token": first.refresh_token})
    with pytest.raises(OAuthRefused) as replayed:  # the rotated token again: two parties hold it
        revoke_credentials.issue_app_token(services, {**refresh, "refresh_token": first.refresh_token})
    assert replayed.value.revoked_for == here.player.player_id
    assert services.live.connections_of(here.player.player_id, now=services.now_epoch()) == ["c_here"]
