"""Which redirect URIs an app may ask for, and the client ids that name an app (pure).

An app names itself (its `client_id`, its name or URL) and its redirect URI with every request; there is
no registration, so the URI is checked for what it is (RFC 8252, OAuth 2.1 §1.5):

- `https://` anywhere (a web app);
- `http://` only to the loopback interface, any port (`127.0.0.1`, `[::1]`, `localhost`): a native app
  listening on the device itself;
- a private-use scheme in reverse-domain form (`com.example.app:/callback`): a mobile app.

Never a fragment, user info, or a scheme a browser runs (javascript:, data:, file:…). The code is then
bound to the exact string, and the token request must repeat it exactly.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import urlsplit

from app.oauth.errors import OAuthRefused

MAX_CLIENT_ID = 200
MAX_REDIRECT_URI = 2000
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "::1", "localhost"})
# RFC 8252 §7.1: a reverse domain name the app controls, so it holds a dot.
_PRIVATE_SCHEME = re.compile(r"^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+$")
# Printable ASCII without spaces, quotes or angle brackets: what a URI is made of.
_URI_CHARACTERS = re.compile(r"^[\x21-\x7e]+$")


def check_client_id(client_id: str) -> str:
    """The app's name or URL, shown to the player as it is: 1 to 200 characters, nothing that hides or
    reorders text (controls, format characters such as bidi overrides), no edge spaces."""
    bad = (
        not client_id
        or len(client_id) > MAX_CLIENT_ID
        or client_id != client_id.strip()
        or any(unicodedata.category(char)[0] in "CZ" and char != " " for char in client_id)
    )
    if bad:
        raise OAuthRefused(
            "invalid_request",
            f"client_id must be the app's name or URL: 1 to {MAX_CLIENT_ID} visible characters",
            code="invalid_client_id",
            redirectable=False,
        )
    return client_id


def check_redirect_uri(uri: str) -> str:
    """The redirect URI as given, if an app may be sent there; else a refusal never redirected."""
    reason = _redirect_problem(uri)
    if reason:
        raise OAuthRefused(
            "invalid_request", f"redirect_uri {reason}", code="invalid_redirect_uri", redirectable=False
        )
    return uri


def _redirect_problem(uri: str) -> str | None:
    if not uri or len(uri) > MAX_REDIRECT_URI or not _URI_CHARACTERS.fullmatch(uri):
        return f"must be an absolute URI of at most {MAX_REDIRECT_URI} characters"
    try:
        parts = urlsplit(uri)
        hostname, _ = parts.hostname, parts.port  # a port that is not a number raises here
    except ValueError:
        return "is not a URI"
    if "#" in uri:
        return "must not have a fragment"
    if "@" in parts.netloc:
        return "must not hold user information"
    scheme = parts.scheme.lower()
    if scheme == "https":
        return None if hostname else "must name a host"
    if scheme == "http":
        return None if hostname in LOOPBACK_HOSTS else "may use http only to 127.0.0.1, [::1] or localhost"
    if _PRIVATE_SCHEME.fullmatch(scheme) and (parts.path or parts.netloc):
        return None
    return "must be https, http to the loopback interface, or a private-use scheme like com.example.app:/cb"
