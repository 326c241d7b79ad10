"""A live connection stands on the credential that took its ticket (a session, a personal token, an app's
grant): a ticket whose credential was revoked since opens nothing, and revoking a credential forgets the
connections it opened, so their next frame is told to reconnect and no change reaches them."""

from __future__ import annotations

from typing import Any

import pytest

from app.core.errors import NotAuthenticated, StoreUnavailable
from app.live import connections
from app.live.tickets import issue_ticket
from app.live.watching import on_frame
from app.players import accounts, app_tokens, personal_tokens
from app.players.accounts import SignedIn
from app.players.ports import AppGrantRecord
from app.services import Services
from tests.support.services import memory_services

T0 = 1_780_000_000
GAME = "g_00000000000000a1"


def signed_up(services: Services) -> SignedIn:
    _, token = accounts.register(services, "Ada")
    return accounts.authenticate(services, f"Bearer {token}")


def opened(services: Services, signed: SignedIn, connection: str) -> str:
    """The connection's id, opened with a ticket `signed`'s credential took."""
    ticket = issue_ticket(services.live, signed.player.player_id, signed.session_id, now=T0).ticket
    return connections.connect(services, connection, ticket, now=T0)


def test_a_ticket_taken_by_a_session_revoked_since_opens_nothing() -> None:
    services = memory_services()
    signed = signed_up(services)
    ticket = issue_ticket(services.live, signed.player.player_id, signed.session_id, now=T0).ticket
    accounts.revoke_token(services, signed)
    with pytest.raises(NotAuthenticated) as refused:
        connections.connect(services, "c1", ticket, now=T0 + 1)
    assert refused.value.code == "credential_revoked"
    assert services.live.connections_of(signed.player.player_id, now=T0 + 1) == []


def test_a_ticket_taken_by_a_personal_token_revoked_since_opens_nothing() -> None:
    services = memory_services()
    owner = signed_up(services)
    _, secret_form = personal_tokens.create(services, owner, "bot", ["games:read"])
    bot = accounts.authenticate(services, f"Bearer {secret_form}")
    ticket = issue_ticket(services.live, bot.player.player_id, bot.session_id, now=T0).ticket
    personal_tokens.revoke(services, owner, bot.session_id)
    with pytest.raises(NotAuthenticated) as refused:
        connections.connect(services, "c1", ticket, now=T0 + 1)
    assert refused.value.code == "credential_revoked"
    assert services.live.connections_of(owner.player.player_id, now=T0 + 1) == []


def test_a_ticket_taken_by_an_app_revoked_since_opens_nothing() -> None:
    services = memory_services()
    owner = signed_up(services)
    player_id = owner.player.player_id
    grant = AppGrantRecord(
        player_id, "a_00000000000000a1", "https://app.example", ("games:read",), "https://app.example/cb",
        "2026-01-01T00:00:00Z", "hash", T0 + 3600, "refresh",
    )  # fmt: skip
    assert services.app_grants.put_app_grant(grant)
    ticket = issue_ticket(services.live, player_id, grant.grant_id, now=T0).ticket
    app_tokens.revoke(services, player_id, None, grant.grant_id)
    with pytest.raises(NotAuthenticated) as refused:
        connections.connect(services, "c1", ticket, now=T0 + 1)
    assert refused.value.code == "credential_revoked"


def test_a_ticket_whose_credential_still_holds_opens_a_connection_that_remembers_it() -> None:
    services = memory_services()
    signed = signed_up(services)
    assert opened(services, signed, "c1") == signed.player.player_id
    assert services.live.credentials_of(signed.player.player_id, now=T0) == {"c1": signed.session_id}


def test_revoking_a_credential_forgets_the_connections_it_opened_and_no_other() -> None:
    services = memory_services()
    here = signed_up(services)
    _, other_token = accounts.open_session(services, here.player, "phone")
    there = accounts.authenticate(services, f"Bearer {other_token}")
    player_id = here.player.player_id
    for connection, signed in (("c_here", here), ("c_there", there)):
        opened(services, signed, connection)
        services.live.add_watch(connection, player_id, GAME, expires_at=T0 + 7200, most=20)

    accounts.end_session(services, here, there.session_id)
    assert connections.forget_revoked(services, player_id, now=T0) == ["c_there"]

    assert services.live.connections_of(player_id, now=T0) == ["c_here"]
    assert sorted(services.live.watchers_with_players(GAME, now=T0)) == ["c_here"]
    # The open socket's next frame is told to reconnect, which its revoked token cannot do.
    answer = on_frame(services, "c_there", '{"action": "watch", "game_id": "' + GAME + '"}', now=T0)
    assert answer["code"] == "connection_unknown"


def test_forgetting_is_best_effort_the_revoke_stands() -> None:
    services = memory_services()
    signed = signed_up(services)
    opened(services, signed, "c1")

    class Unavailable:
        def __getattr__(self, name: str) -> Any:
            raise StoreUnavailable()

    accounts.revoke_token(services, signed)
    broken = memory_services(players=services.players, sessions=services.sessions, live=Unavailable())
    assert connections.forget_revoked(broken, signed.player.player_id, now=T0) == []
