"""Which authorization requests the player is asked about (pure): redirect URIs an app may use (RFC
8252), client ids shown as they are, PKCE S256 only, and scopes an app may hold."""

from __future__ import annotations

import pytest

from app.oauth import pkce
from app.oauth.errors import OAuthRefused
from app.oauth.redirects import check_client_id, check_redirect_uri
from app.oauth.requests import check_request

CHALLENGE = pkce.challenge_of("v" * 43)


@pytest.mark.parametrize(
    "uri",
    [
        "https://bot.example.org/callback",
        "https://bot.example.org/cb?app=1",
        "http://127.0.0.1:8765/callback",
        "http://127.0.0.1/callback",
        "http://[::1]:51000/cb",
        "http://localhost:3000/cb",
        "com.example.app:/oauth2redirect",
        "org.example.dixit://callback",
    ],
)
def test_https_loopback_http_and_private_use_schemes_are_redirect_uris(uri: str) -> None:
    assert check_redirect_uri(uri) == uri


@pytest.mark.parametrize(
    "uri",
    [
        "",
        "http://bot.example.org/callback",  # http off the loopback interface
        "http://127.0.0.1.evil.example/cb",
        "http://localhost@evil.example/cb",  # user info: the host is evil.example
        "https://user@bot.example.org/cb",
        "https://bot.example.org/cb#fragment",
        "javascript:alert(1)",
        "data:text/html,hi",
        "file:///etc/passwd",
        "myapp:/cb",  # a private-use scheme must be a reverse domain name
        "com.example.app:",  # nowhere to come back to
        "https:///no-host",
        "https://bot.example.org/a b",
        "https://bot.example.org:notaport/cb",
        "/relative/callback",
        "https://" + "a" * 2000 + ".org/",
    ],
)
def test_anything_else_is_refused_and_never_redirected_to(uri: str) -> None:
    with pytest.raises(OAuthRefused) as refused:
        check_redirect_uri(uri)
    assert refused.value.code == "invalid_redirect_uri"
    assert not refused.value.redirectable


@pytest.mark.parametrize("client_id", ["", " padded", "x" * 201, "evil\u202egnp.exe", "two\nlines"])
def test_a_client_id_hides_nothing_from_the_player(client_id: str) -> None:
    with pytest.raises(OAuthRefused) as refused:
        check_client_id(client_id)
    assert (refused.value.code, refused.value.redirectable) == ("invalid_client_id", False)


def test_a_client_id_may_be_a_name_or_a_url() -> None:
    assert check_client_id("Café bot") == "Café bot"
    assert check_client_id("https://bot.example.org") == "https://bot.example.org"


def _request(**changes: str) -> dict[str, str]:
    fields = {
        "client_id": "My bot",
        "redirect_uri": "http://127.0.0.1:8765/cb",
        "response_type": "code",
        "scope": "games:play games:read",
        "state": "xyz",
        "code_challenge": CHALLENGE,
        "code_challenge_method": "S256",
    }
    return {**fields, **changes}


def test_a_good_request_is_checked_with_its_scopes_in_order() -> None:
    checked = check_request(**_request())
    assert checked.scopes == ("games:read", "games:play")
    assert (checked.client_id, checked.state, checked.code_challenge) == ("My bot", "xyz", CHALLENGE)


@pytest.mark.parametrize(
    ("changes", "error", "code"),
    [
        ({"code_challenge_method": "plain"}, "invalid_request", "pkce_s256_required"),
        ({"code_challenge_method": ""}, "invalid_request", "pkce_s256_required"),
        ({"code_challenge": "short"}, "invalid_request", "invalid_code_challenge"),
        ({"code_challenge": CHALLENGE[:-1] + "+"}, "invalid_request", "invalid_code_challenge"),
        ({"response_type": "token"}, "unsupported_response_type", "unsupported_response_type"),
        ({"scope": "games:read account:owner"}, "invalid_scope", "scope_not_grantable"),
        ({"scope": "games:admin"}, "invalid_scope", "unknown_scope"),
        ({"scope": ""}, "invalid_scope", "no_scopes"),
        ({"state": "é"}, "invalid_request", "invalid_state"),
    ],
)
def test_a_request_the_protocol_refuses(changes: dict[str, str], error: str, code: str) -> None:
    with pytest.raises(OAuthRefused) as refused:
        check_request(**_request(**changes))
    assert (refused.value.error, refused.value.code, refused.value.redirectable) == (error, code, True)


def test_the_redirect_uri_is_judged_before_anything_else() -> None:
    with pytest.raises(OAuthRefused) as refused:
        check_request(**_request(redirect_uri="https://x.org/#f", code_challenge_method="plain"))
    assert refused.value.code == "invalid_redirect_uri"


def test_pkce_s256_matches_rfc_7636_appendix_b() -> None:
    verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    assert pkce.challenge_of(verifier) == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
    assert pkce.verifies(verifier, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    assert not pkce.verifies(verifier[:-1] + "l", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    assert not pkce.verifies("too-short", pkce.challenge_of("too-short"))
