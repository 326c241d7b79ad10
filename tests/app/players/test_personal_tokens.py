"""Personal tokens as use cases (in memory): made from a session only, with grantable scopes; checked by
their secret; their last use written at most once a minute; a lost answer recognised, not doubled."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, get_args

import pytest

from app.core.errors import InsufficientScope, InvalidInput, NotAuthenticated, StoreUnavailable
from app.players import accounts, personal_tokens
from app.players.scopes import GRANTABLE, GrantableScopeName, Scope, allows, ordered
from app.services import Services
from tests.support.clock import Clock

PLAYING = ("games:read", "games:play")


def session_of(services: Services) -> accounts.SignedIn:
    _, token = accounts.register(services, "Ada")
    return accounts.authenticate(services, f"Bearer {token}")


def test_the_schema_names_and_the_scopes_are_one_list() -> None:
    assert get_args(GrantableScopeName) == tuple(scope.value for scope in Scope if scope in GRANTABLE)
    assert Scope.OWNER not in GRANTABLE
    assert GRANTABLE | {Scope.OWNER} == set(Scope)


def test_a_session_holds_every_scope_and_a_token_only_its_own(services: Services) -> None:
    signed = session_of(services)
    assert signed.scopes is None
    assert all(allows(signed.scopes, scope) for scope in Scope)
    _, secret_form = personal_tokens.create(services, signed, "bot", ["games:play", "games:read"])
    bot = accounts.authenticate(services, f"Bearer {secret_form}")
    assert bot.player == signed.player
    assert bot.scopes == frozenset(PLAYING)
    assert bot.session_id == secret_form.split(".")[1]
    assert [scope for scope in Scope if allows(bot.scopes, scope)] == [Scope.GAMES_READ, Scope.GAMES_PLAY]


def test_scopes_are_kept_once_each_in_the_lists_order() -> None:
    assert ordered(["account:read", "games:read", "account:read"]) == ("games:read", "account:read")
    assert personal_tokens.check_scopes(["games:play", "games:read"]) == PLAYING


@pytest.mark.parametrize(
    ("scopes", "code"),
    [
        (["account:owner"], "scope_not_grantable"),
        (["games:read", "account:owner"], "scope_not_grantable"),
        (["games:admin"], "unknown_scope"),
        ([], "no_scopes"),
    ],
)
def test_only_grantable_scopes_are_given(services: Services, scopes: list[str], code: str) -> None:
    signed = session_of(services)
    with pytest.raises(InvalidInput) as refused:
        personal_tokens.create(services, signed, "bot", scopes)
    assert refused.value.code == code
    assert services.personal_tokens.list_personal_tokens(signed.player.player_id) == []


def test_a_token_never_makes_lists_or_revokes_tokens_nor_touches_sessions(services: Services) -> None:
    signed = session_of(services)
    made, secret_form = personal_tokens.create(services, signed, "bot", list(GRANTABLE))
    bot = accounts.authenticate(services, f"Bearer {secret_form}")
    for act in (
        lambda: personal_tokens.create(services, bot, "another", ["games:read"]),
        lambda: personal_tokens.list_tokens(services, bot),
        lambda: personal_tokens.revoke(services, bot, made.token_id),
        lambda: accounts.sessions_of(services, bot),
        lambda: accounts.rotate_token(services, bot),
        lambda: accounts.revoke_token(services, bot),
        lambda: accounts.end_other_sessions(services, bot),
    ):
        with pytest.raises(InsufficientScope) as refused:
            act()
        assert refused.value.scope == "account:owner"
    assert len(personal_tokens.list_tokens(services, signed)) == 1


def test_a_revoked_token_or_a_wrong_secret_is_refused(services: Services) -> None:
    signed = session_of(services)
    made, secret_form = personal_tokens.create(services, signed, "bot", PLAYING)
    player_id, token_id, _ = secret_form.split(".")
    with pytest.raises(NotAuthenticated):
        accounts.authenticate(services, f"Bearer {player_id}.{token_id}.wrong")
    personal_tokens.revoke(services, signed, made.token_id)
    with pytest.raises(NotAuthenticated):
        accounts.authenticate(services, f"Bearer {secret_form}")


def test_the_last_use_is_written_at_most_once_a_minute(services: Services, clock: Clock) -> None:
    signed = session_of(services)
    made, secret_form = personal_tokens.create(services, signed, "bot", PLAYING)
    assert made.last_used_at == ""
    writes: list[str] = []
    touch = services.personal_tokens.touch_personal_token

    def counted(*args: Any, **kwargs: Any) -> None:
        writes.append(kwargs["used_at"])
        touch(*args, **kwargs)

    store: Any = services.personal_tokens
    store.touch_personal_token = counted
    first = services.now_iso()
    accounts.authenticate(services, f"Bearer {secret_form}")
    clock.advance(seconds=59)
    accounts.authenticate(services, f"Bearer {secret_form}")
    assert writes == [first]
    clock.advance(seconds=2)
    accounts.authenticate(services, f"Bearer {secret_form}")
    assert len(writes) == 2
    (listed,) = personal_tokens.list_tokens(services, signed)
    assert listed.last_used_at == writes[1]


def test_a_failed_last_use_write_does_not_fail_the_request(services: Services) -> None:
    signed = session_of(services)
    _, secret_form = personal_tokens.create(services, signed, "bot", PLAYING)

    def unavailable(*args: Any, **kwargs: Any) -> None:
        raise StoreUnavailable()

    store: Any = services.personal_tokens
    store.touch_personal_token = unavailable
    assert accounts.authenticate(services, f"Bearer {secret_form}").player == signed.player


class LostAnswer:
    """The token port, where the creation lands but its answer is lost (the retry finds its own item)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def create_personal_token(self, token: Any, *, limit: int) -> bool:
        assert self.inner.create_personal_token(token, limit=limit)
        return bool(self.inner.create_personal_token(token, limit=limit))  # raises VersionConflict

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def test_a_creation_whose_answer_was_lost_is_made_once(services: Services) -> None:
    signed = session_of(services)
    lossy = replace(services, personal_tokens=LostAnswer(services.personal_tokens))
    made, secret_form = personal_tokens.create(lossy, signed, "bot", PLAYING)
    assert personal_tokens.list_tokens(services, signed) == [made]
    assert accounts.authenticate(services, f"Bearer {secret_form}").scopes == frozenset(PLAYING)
