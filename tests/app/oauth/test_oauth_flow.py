"""Authorization code + PKCE and refresh rotation as use cases, on every store: a code works once, for its
verifier, client and redirect URI, for a few minutes; refresh tokens rotate, a rotated one replayed
revokes the app; the app's token is checked like a personal token and dies with its grant."""

from __future__ import annotations

from dataclasses import replace
from urllib.parse import parse_qs, urlsplit

import pytest

from app.core.errors import InsufficientScope, NotAuthenticated, NotFound, RateLimited
from app.oauth import consent, pkce, tokens
from app.oauth.errors import OAuthRefused
from app.oauth.ports import AuthorizationCode
from app.oauth.requests import check_request
from app.players import accounts, app_tokens
from app.services import Services
from tests.support.clock import Clock

VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
REDIRECT = "http://127.0.0.1:8765/callback"
CLIENT = "https://bot.example.org"


def _signed(services: Services) -> accounts.SignedIn:
    _, token = accounts.register(services, "Ada")
    return accounts.authenticate(services, f"Bearer {token}")


def _code(services: Services, signed: accounts.SignedIn, scope: str = "games:read games:play") -> str:
    request = check_request(
        client_id=CLIENT,
        redirect_uri=REDIRECT,
        response_type="code",
        scope=scope,
        state="st4te",
        code_challenge=pkce.challenge_of(VERIFIER),
        code_challenge_method="S256",
    )
    where = consent.decide(services, signed.player.player_id, signed.scopes, request, approve=True)
    assert where.startswith(REDIRECT + "?")
    query = parse_qs(urlsplit(where).query)
    assert query["state"] == ["st4te"]
    return query["code"][0]


def _exchange(services: Services, code: str, **changes: str) -> tokens.Issued:
    form = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": REDIRECT,
        "client_id": CLIENT,
        "code_verifier": VERIFIER,
    }
    return tokens.issue(services, {**form, **changes})


def _refresh(services: Services, refresh_token: str) -> tokens.Issued:
    return tokens.issue(
        services, {"grant_type": "refresh_token", "refresh_token": refresh_token, "client_id": CLIENT}
    )


def _refused(call: object, error: str = "invalid_grant") -> OAuthRefused:
    assert callable(call)
    with pytest.raises(OAuthRefused) as refused:
        call()
    assert refused.value.error == error
    return refused.value


def test_a_code_gives_a_scoped_token_that_signs_the_player_in(services: Services) -> None:
    signed = _signed(services)
    issued = _exchange(services, _code(services, signed))
    assert issued.scopes == ("games:read", "games:play")
    assert issued.expires_in == tokens.ACCESS_SECONDS
    app = accounts.authenticate(services, f"Bearer {issued.access_token}")
    assert app.player == signed.player
    assert app.scopes == frozenset({"games:read", "games:play"})
    assert app.session_id.startswith("a_")
    # The refresh token is no bearer token.
    with pytest.raises(NotAuthenticated):
        accounts.authenticate(services, f"Bearer {issued.refresh_token}")
    (listed,) = app_tokens.list_apps(services, signed.player.player_id, None)
    assert (listed.client_id, listed.scopes, listed.redirect_uri) == (CLIENT, issued.scopes, REDIRECT)
    # Only hashes are kept.
    assert issued.access_token.split(".")[2] not in repr(listed)
    assert issued.refresh_token.split(".")[2] not in repr(listed)


def test_a_code_works_once(services: Services) -> None:
    code = _code(services, _signed(services))
    _exchange(services, code)
    assert "used" in _refused(lambda: _exchange(services, code)).detail


@pytest.mark.parametrize(
    "changes",
    [
        {"code_verifier": VERIFIER[:-1] + "l"},
        {"redirect_uri": REDIRECT + "/"},
        {"redirect_uri": REDIRECT.replace("8765", "8766")},
        {"client_id": "https://bot.example.org/"},
    ],
)
def test_a_wrong_verifier_redirect_or_client_is_refused_and_uses_the_code_up(
    services: Services, changes: dict[str, str]
) -> None:
    code = _code(services, _signed(services))
    _refused(lambda: _exchange(services, code, **changes))
    _refused(lambda: _exchange(services, code))


def test_a_code_lives_five_minutes(services: Services, clock: Clock) -> None:
    code = _code(services, _signed(services))
    clock.advance(seconds=consent.CODE_SECONDS)
    _refused(lambda: _exchange(services, code))


def test_missing_fields_and_unknown_grant_types(services: Services) -> None:
    _refused(lambda: tokens.issue(services, {}), "invalid_request")
    _refused(lambda: tokens.issue(services, {"grant_type": "password"}), "unsupported_grant_type")
    _refused(lambda: _exchange(services, "c", code_verifier=""), "invalid_request")
    _refused(lambda: _exchange(services, "c", client_id="two\nlines"), "invalid_client")


def test_refusing_sends_access_denied_and_stores_no_code(services: Services) -> None:
    signed = _signed(services)
    request = check_request(
        client_id=CLIENT,
        redirect_uri=REDIRECT + "?from=app",
        response_type="code",
        scope="games:read",
        state="s",
        code_challenge=pkce.challenge_of(VERIFIER),
        code_challenge_method="S256",
    )
    where = consent.decide(services, signed.player.player_id, None, request, approve=False)
    assert where == f"{REDIRECT}?from=app&error=access_denied&state=s"
    with pytest.raises(InsufficientScope):
        consent.decide(services, signed.player.player_id, frozenset({"games:read"}), request, approve=True)


def test_refresh_rotates_and_the_old_tokens_stop(services: Services) -> None:
    first = _exchange(services, _code(services, _signed(services)))
    second = _refresh(services, first.refresh_token)
    assert second.refresh_token != first.refresh_token
    assert second.scopes == first.scopes
    accounts.authenticate(services, f"Bearer {second.access_token}")
    with pytest.raises(NotAuthenticated):
        accounts.authenticate(services, f"Bearer {first.access_token}")
    third = _refresh(services, second.refresh_token)
    accounts.authenticate(services, f"Bearer {third.access_token}")


def test_a_rotated_refresh_token_used_again_revokes_the_whole_app(services: Services) -> None:
    signed = _signed(services)
    first = _exchange(services, _code(services, signed))
    second = _refresh(services, first.refresh_token)
    assert "revoked" in _refused(lambda: _refresh(services, first.refresh_token)).detail
    with pytest.raises(NotAuthenticated):
        accounts.authenticate(services, f"Bearer {second.access_token}")
    _refused(lambda: _refresh(services, second.refresh_token))
    assert app_tokens.list_apps(services, signed.player.player_id, None) == []


def test_a_made_up_refresh_token_revokes_nothing(services: Services) -> None:
    first = _exchange(services, _code(services, _signed(services)))
    player_id, refresh_id, _ = first.refresh_token.split(".")
    _refused(lambda: _refresh(services, f"{player_id}.{refresh_id}.made-up-secret"))
    _refused(lambda: _refresh(services, "not a token"))
    with pytest.raises(OAuthRefused):
        tokens.issue(
            services,
            {"grant_type": "refresh_token", "refresh_token": first.refresh_token, "client_id": "other app"},
        )
    accounts.authenticate(services, f"Bearer {first.access_token}")
    _refresh(services, first.refresh_token)


def test_a_refresh_keeps_the_granted_scopes(services: Services) -> None:
    first = _exchange(services, _code(services, _signed(services), scope="games:read"))
    form = {"grant_type": "refresh_token", "refresh_token": first.refresh_token, "client_id": CLIENT}
    _refused(lambda: tokens.issue(services, {**form, "scope": "games:read games:play"}), "invalid_scope")
    assert tokens.issue(services, {**form, "scope": "games:read"}).scopes == ("games:read",)


def test_an_access_token_lives_an_hour(services: Services, clock: Clock) -> None:
    first = _exchange(services, _code(services, _signed(services)))
    clock.advance(seconds=tokens.ACCESS_SECONDS)
    with pytest.raises(NotAuthenticated) as refused:
        accounts.authenticate(services, f"Bearer {first.access_token}")
    assert refused.value.code == "token_expired"
    accounts.authenticate(services, f"Bearer {_refresh(services, first.refresh_token).access_token}")


def test_revoking_the_app_stops_its_tokens_at_once(services: Services) -> None:
    signed = _signed(services)
    first = _exchange(services, _code(services, signed))
    (grant,) = app_tokens.list_apps(services, signed.player.player_id, None)
    with pytest.raises(InsufficientScope):
        app_tokens.revoke(services, signed.player.player_id, frozenset({"games:read"}), grant.grant_id)
    app_tokens.revoke(services, signed.player.player_id, None, grant.grant_id)
    with pytest.raises(NotAuthenticated):
        accounts.authenticate(services, f"Bearer {first.access_token}")
    _refused(lambda: _refresh(services, first.refresh_token))
    with pytest.raises(NotFound):
        app_tokens.revoke(services, signed.player.player_id, None, grant.grant_id)


def test_approving_the_same_app_again_replaces_its_grant(services: Services) -> None:
    signed = _signed(services)
    first = _exchange(services, _code(services, signed))
    again = _exchange(services, _code(services, signed, scope="games:read"))
    (grant,) = app_tokens.list_apps(services, signed.player.player_id, None)
    assert grant.scopes == ("games:read",)
    with pytest.raises(NotAuthenticated):
        accounts.authenticate(services, f"Bearer {first.access_token}")
    accounts.authenticate(services, f"Bearer {again.access_token}")


def test_an_account_erased_before_the_exchange_gets_nothing(services: Services) -> None:
    signed = _signed(services)
    code = _code(services, signed)
    services.players.delete_player_data(signed.player.player_id)
    _refused(lambda: _exchange(services, code))


def test_an_apps_token_has_a_personal_tokens_limits(services: Services) -> None:
    issued = _exchange(services, _code(services, _signed(services)))
    for _ in range(120):
        accounts.authenticate(services, f"Bearer {issued.access_token}")
    with pytest.raises(RateLimited) as refused:
        accounts.authenticate(services, f"Bearer {issued.access_token}")
    assert refused.value.code == "token_rate_limited"
    assert 0 < refused.value.retry_after <= 60


def test_revoking_the_app_kills_the_codes_it_was_given_and_not_yet_exchanged(services: Services) -> None:
    signed = _signed(services)
    first = _exchange(services, _code(services, signed))
    kept = _code(services, signed)
    (grant,) = app_tokens.list_apps(services, signed.player.player_id, None)
    app_tokens.revoke(services, signed.player.player_id, None, grant.grant_id)
    with pytest.raises(NotAuthenticated):
        accounts.authenticate(services, f"Bearer {first.access_token}")
    _refused(lambda: _exchange(services, kept))
    assert app_tokens.list_apps(services, signed.player.player_id, None) == []


def test_a_revocation_by_a_replayed_refresh_token_kills_the_unused_codes_too(services: Services) -> None:
    signed = _signed(services)
    first = _exchange(services, _code(services, signed))
    kept = _code(services, signed)
    _refresh(services, first.refresh_token)
    _refused(lambda: _refresh(services, first.refresh_token))  # the replay revokes the app
    _refused(lambda: _exchange(services, kept))
    assert app_tokens.list_apps(services, signed.player.player_id, None) == []


ALL_FOUR = "games:read games:play webhooks:manage account:read"


def test_a_new_consent_supersedes_the_codes_given_before_it(services: Services) -> None:
    signed = _signed(services)
    wide = _code(services, signed, scope=ALL_FOUR)
    narrow = _code(services, signed, scope="games:read")
    assert _exchange(services, narrow).scopes == ("games:read",)
    assert "superseded" in _refused(lambda: _exchange(services, wide)).detail
    (grant,) = app_tokens.list_apps(services, signed.player.player_id, None)
    assert grant.scopes == ("games:read",)


def test_a_superseded_code_is_refused_even_before_the_newest_is_exchanged(services: Services) -> None:
    signed = _signed(services)
    wide = _code(services, signed, scope=ALL_FOUR)
    narrow = _code(services, signed, scope="games:read")
    _refused(lambda: _exchange(services, wide))
    assert app_tokens.list_apps(services, signed.player.player_id, None) == []
    assert _exchange(services, narrow).scopes == ("games:read",)


def test_a_revocation_between_the_codes_take_and_the_grants_write_wins(services: Services) -> None:
    # No read-then-write: the grant is written only if its code is still the newest, in the same write.
    signed = _signed(services)
    _exchange(services, _code(services, signed))
    kept = _code(services, signed)
    (grant,) = app_tokens.list_apps(services, signed.player.player_id, None)
    codes = services.oauth_codes

    class RevokedMeanwhile:
        def put_code(self, code: AuthorizationCode) -> None:
            codes.put_code(code)

        def take_code(self, code_hash: str) -> AuthorizationCode | None:
            taken = codes.take_code(code_hash)
            app_tokens.revoke(services, signed.player.player_id, None, grant.grant_id)
            return taken

    racing = replace(services, oauth_codes=RevokedMeanwhile())
    _refused(lambda: _exchange(racing, kept))
    assert app_tokens.list_apps(services, signed.player.player_id, None) == []
