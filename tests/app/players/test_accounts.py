"""app.players.accounts: registering players, rotating and revoking tokens, recognising players by one."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.core.errors import Conflict, NotAuthenticated, VersionConflict
from app.core.records import PlayerRecord
from app.core.settings import AppSettings
from app.players import accounts
from app.services import Services
from dixit.errors import InvalidMoveError
from tests.support.clock import Clock


def bearer(token: str) -> str:
    return f"Bearer {token}"


def who(services: Services, token: str) -> PlayerRecord:
    """The player a token signs in."""
    return accounts.authenticate(services, bearer(token)).player


def session_hash(services: Services, player: PlayerRecord) -> str:
    (session,) = services.sessions.list_sessions(player.player_id)
    return session.token_hash


def refusal(services: Services, authorization: str | None) -> str:
    with pytest.raises(NotAuthenticated) as refused:
        accounts.authenticate(services, authorization)
    return refused.value.code


class LostAnswers:
    """A PlayerStore whose writes land but whose answers are lost: the retried write is refused.

    (A rotation's lost answer, now the session store's, is tested in tests/app/players/test_sessions.py.)
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def create_player(self, player: PlayerRecord) -> None:
        self.inner.create_player(player)
        raise VersionConflict(None)  # what the retry of a write that landed hears

    def get_player(self, player_id: str) -> PlayerRecord | None:
        return self.inner.get_player(player_id)


# Registering


def test_registering_stores_the_player_under_the_name_given_and_only_a_hash_of_the_token(
    services: Services,
) -> None:
    player, token = accounts.register(services, "  Ada  ")
    player_id, session_id, secret = token.split(".")
    assert player_id == player.player_id
    assert session_id.startswith("s_")
    assert player.name == "Ada"
    assert player.created_at == services.now_iso()
    assert services.players.get_player(player.player_id) == player
    assert secret
    assert session_hash(services, player)
    assert secret not in session_hash(services, player)
    assert who(services, token) == player


def test_every_registration_is_a_new_player_with_a_token_of_its_own(services: Services) -> None:
    ada, ada_token = accounts.register(services, "Ada")
    bob, bob_token = accounts.register(services, "Ada")
    assert ada.player_id != bob.player_id
    assert ada_token != bob_token
    assert who(services, bob_token) == bob


def test_a_blank_name_is_refused_and_no_player_is_stored(services: Services) -> None:
    with pytest.raises(InvalidMoveError) as refused:
        accounts.register(services, "   ")
    assert refused.value.code == "blank_name"
    assert services.players.table.players == {}  # the double's whole table


def test_a_registration_whose_answer_was_lost_is_not_refused_as_a_duplicate(services: Services) -> None:
    lossy = replace(services, players=LostAnswers(services.players))
    player, token = accounts.register(lossy, "Ada")
    assert who(services, token) == player


def test_an_id_someone_else_holds_is_refused(services: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    taken, _ = accounts.register(services, "Ada")
    monkeypatch.setattr(accounts, "new_player_id", lambda: taken.player_id)
    with pytest.raises(VersionConflict):
        accounts.register(services, "Bob")
    assert services.players.get_player(taken.player_id) == taken


# Rotating and revoking


def test_a_rotated_token_authenticates_and_the_old_one_no_longer_does(
    services: Services, clock: Clock
) -> None:
    _, old = accounts.register(services, "Ada")
    clock.advance(hours=1)
    rotated, new = accounts.rotate_token(services, accounts.authenticate(services, bearer(old)))
    assert new != old
    assert new.split(".")[:2] == old.split(".")[:2]  # the same player, the same session
    assert who(services, new) == rotated
    assert refusal(services, bearer(old)) == "invalid_token"


def test_rotating_with_a_token_another_request_already_replaced_is_a_conflict(services: Services) -> None:
    _, old = accounts.register(services, "Ada")
    before = accounts.authenticate(services, bearer(old))
    rotated, token = accounts.rotate_token(services, before)
    with pytest.raises(Conflict) as lost:
        accounts.rotate_token(services, before)  # the session as read before the first rotation
    assert lost.value.code == "token_changed"
    assert who(services, token) == rotated


def test_a_revoked_token_no_longer_authenticates_and_the_other_players_do(services: Services) -> None:
    player, token = accounts.register(services, "Ada")
    other, other_token = accounts.register(services, "Bob")
    accounts.revoke_token(services, accounts.authenticate(services, bearer(token)))
    assert services.sessions.list_sessions(player.player_id) == []
    assert refusal(services, bearer(token)) == "invalid_token"
    assert who(services, other_token) == other


# Authenticating


@pytest.mark.parametrize(
    ("authorization", "code"),
    [
        (None, "missing_token"),
        ("", "missing_token"),
        ("Basic dXNlcjpwdw==", "missing_token"),
        ("Bearer   ", "missing_token"),
        ("Bearer secret-without-an-id", "invalid_token"),
        ("Bearer q_0123456789abcdef.secret", "invalid_token"),
        ("Bearer p_0123456789abcdef.", "invalid_token"),
        (f"Bearer p_{'0' * 40}.secret", "invalid_token"),
        ("Bearer p_0123456789abcdef.secret", "invalid_token"),  # nobody has this id
    ],
)
def test_a_missing_or_malformed_token_or_one_naming_nobody_is_refused(
    services: Services, authorization: str | None, code: str
) -> None:
    accounts.register(services, "Ada")
    assert refusal(services, authorization) == code


def test_the_right_id_with_the_wrong_secret_is_refused(services: Services) -> None:
    player, token = accounts.register(services, "Ada")
    assert refusal(services, bearer(f"{token}x")) == "invalid_token"
    assert accounts.authenticate(services, f"bearer  {token} ").player == player  # the scheme in any case


def test_a_token_older_than_the_maximum_age_is_expired_and_only_its_holder_is_told(
    services: Services, clock: Clock
) -> None:
    services = replace(services, settings=AppSettings(token_max_age_seconds=3_600))
    player, token = accounts.register(services, "Ada")
    clock.advance(seconds=3_600)
    assert who(services, token) == player  # exactly the maximum age: still valid
    clock.advance(seconds=1)
    assert refusal(services, bearer(token)) == "token_expired"
    # Only the holder of the right secret learns that it expired.
    player_id, session_id, _ = token.split(".")
    assert refusal(services, bearer(f"{player_id}.{session_id}.wrong")) == "invalid_token"


def test_without_a_maximum_age_a_token_never_expires(services: Services, clock: Clock) -> None:
    assert services.settings.token_max_age_seconds is None
    player, token = accounts.register(services, "Ada")
    clock.advance(days=3_650)
    assert who(services, token) == player
