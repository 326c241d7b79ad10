"""The session use cases on every store: lost write answers are recognised, races are conflicts, and
recording a session's last use never fails the request it came with."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.core.errors import Conflict, NotAuthenticated, StoreUnavailable
from app.players import accounts
from app.services import Services

from .. import every_store

# On every Store adapter, as tests/app/conftest.py gives it, not this folder's in-memory `services`: a
# fixture of the module takes precedence over the folder's.
services = every_store.services


def bearer(token: str) -> str:
    return f"Bearer {token}"


class LostAnswers:
    """The session port, where each swap and creation lands but its answer is lost (botocore's retry
    then fails the write's own condition)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def replace_token(self, *args: Any, **kwargs: Any) -> bool:
        assert self.inner.replace_token(*args, **kwargs)
        return False

    def create_session(self, session: Any) -> None:
        self.inner.create_session(session)
        self.inner.create_session(session)  # the retry: refused as a duplicate

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def test_open_session_is_the_sign_in_a_later_route_calls(services: Services) -> None:
    player, first = accounts.register(services, "Ada", "phone")
    session, token = accounts.open_session(services, player, " tablet ")
    assert session.device == "tablet"
    assert token.startswith(f"{player.player_id}.{session.session_id}.")
    assert accounts.authenticate(services, bearer(token)).session == session
    assert accounts.authenticate(services, bearer(first)).session.device == "phone"


def test_a_lost_answer_to_opening_a_session_is_not_a_conflict(services: Services) -> None:
    lossy = replace(services, sessions=LostAnswers(services.sessions))
    _, token = accounts.register(lossy, "Ada")
    assert accounts.authenticate(services, bearer(token)).player.name == "Ada"


@pytest.mark.parametrize("key", [None, "k-1"])
def test_a_lost_answer_to_a_rotation_is_not_a_conflict(services: Services, key: str | None) -> None:
    _, token = accounts.register(services, "Ada")
    signed = accounts.authenticate(services, bearer(token))
    lossy = replace(services, sessions=LostAnswers(services.sessions))
    _, new = accounts.rotate_token(lossy, signed, key)
    assert accounts.authenticate(services, bearer(new)).session_id == signed.session_id


def test_a_rotation_that_lost_a_race_is_409_token_changed(services: Services) -> None:
    _, token = accounts.register(services, "Ada")
    signed = accounts.authenticate(services, bearer(token))
    accounts.rotate_token(services, signed)
    with pytest.raises(Conflict) as lost:
        accounts.rotate_token(services, signed)
    assert lost.value.code == "token_changed"


def test_a_keyed_rotation_is_the_same_token_for_the_same_key_and_old_token(services: Services) -> None:
    _, token = accounts.register(services, "Ada")
    _, new = accounts.rotate_token(services, accounts.authenticate(services, bearer(token)), "k-1")
    retried = accounts.authenticate(services, bearer(token), rotation_key="k-1")
    assert accounts.rotate_token(services, retried, "k-1")[1] == new
    for key in (None, "k-2"):
        with pytest.raises(NotAuthenticated):
            accounts.authenticate(services, bearer(token), rotation_key=key)


def test_revoking_after_another_request_rotated_is_409(services: Services) -> None:
    _, token = accounts.register(services, "Ada")
    signed = accounts.authenticate(services, bearer(token))
    accounts.rotate_token(services, signed)
    with pytest.raises(Conflict):
        accounts.revoke_token(services, signed)


def test_revoking_a_session_signed_out_meanwhile_is_done(services: Services) -> None:
    _, token = accounts.register(services, "Ada")
    signed = accounts.authenticate(services, bearer(token))
    services.sessions.delete_session(signed.player.player_id, signed.session_id)
    accounts.revoke_token(services, signed)


class Unavailable:
    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def touch(self, *args: Any, **kwargs: Any) -> None:
        raise StoreUnavailable()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def test_a_failed_record_of_last_use_does_not_fail_the_request(services: Services) -> None:
    _, token = accounts.register(services, "Ada")
    later = services.clock() + accounts.LAST_USED_GRANULARITY * 2
    flaky = replace(services, sessions=Unavailable(services.sessions), clock=lambda: later)
    assert accounts.authenticate(flaky, bearer(token)).player.name == "Ada"
