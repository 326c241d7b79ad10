"""The token endpoint (RFC 6749 §4.1.3, §6): a code for a grant's first tokens, a refresh token for the
next ones.

A code is taken by a conditional delete before anything else is looked at, so it works once, even for
two requests racing with it; a wrong verifier, client id or redirect URI uses it up all the same. The
grant is written from it only if it is still the newest code the player gave the app (app.oauth.consent),
in the grant's own write: a later consent or a revocation, even one racing the exchange, wins. A
refresh token is rotated on every use: the grant's refresh hash is swapped conditionally, and the hash
it replaced joins the grant's last few rotated ones. A rotated token presented again means two parties
hold it (the app and a thief, in some order): the whole grant is revoked (OAuth 2.1 §4.3.1). Only a
hash the grant itself rotated away can do that: a made-up token is just refused.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from dataclasses import replace

from app.oauth import pkce
from app.oauth.consent import hash_code
from app.oauth.errors import OAuthRefused
from app.oauth.ports import IssuingTokens
from app.oauth.redirects import check_client_id
from app.players.app_tokens import grant_id_for, grant_of_refresh_id, refresh_id
from app.players.ports import AppGrantRecord
from app.players.token_secrets import hash_secret, new_secret
from dixit.lean_dataclass import dataclass

ACCESS_SECONDS = 3600
# How many rotated refresh hashes a grant remembers: an app refreshing hourly is caught replaying any
# token of the last day; an older copy is merely refused. Bounded, so the item never grows.
ROTATED_KEPT = 24


@dataclass(frozen=True, slots=True)
class Issued:
    access_token: str
    refresh_token: str
    expires_in: int
    scopes: tuple[str, ...]


def _required(form: Mapping[str, str], *names: str) -> list[str]:
    missing = [name for name in names if not form.get(name)]
    if missing:
        raise OAuthRefused("invalid_request", f"{missing[0]} is required", code="missing_parameter")
    return [form[name] for name in names]


def _client(client_id: str) -> str:
    try:
        return check_client_id(client_id)
    except OAuthRefused:
        raise OAuthRefused("invalid_client", "client_id is not an app's name or URL") from None


def _invalid_grant(detail: str) -> OAuthRefused:
    return OAuthRefused("invalid_grant", detail)


def issue(services: IssuingTokens, form: Mapping[str, str]) -> Issued:
    """Tokens for a token request's form fields, or OAuthRefused."""
    grant_type = form.get("grant_type", "")
    if grant_type == "authorization_code":
        return _exchange(services, form)
    if grant_type == "refresh_token":
        return _refresh(services, form)
    if not grant_type:
        raise OAuthRefused("invalid_request", "grant_type is required", code="missing_parameter")
    raise OAuthRefused("unsupported_grant_type", "grant_type must be authorization_code or refresh_token")


def _exchange(services: IssuingTokens, form: Mapping[str, str]) -> Issued:
    code, redirect_uri, client_id, verifier = _required(
        form, "code", "redirect_uri", "client_id", "code_verifier"
    )
    client = _client(client_id)
    taken = services.oauth_codes.take_code(hash_code(code))
    if taken is None or services.now_epoch() >= taken.expires_at:
        raise _invalid_grant("the code is unknown, used or expired")
    if taken.client_id != client:
        raise _invalid_grant("the code was given to another client_id")
    if taken.redirect_uri != redirect_uri:
        raise _invalid_grant("redirect_uri is not the one the code was given for")
    if not pkce.verifies(verifier, taken.code_challenge):
        raise _invalid_grant("code_verifier does not match the code_challenge")
    access, refresh = new_secret(), new_secret()
    grant = AppGrantRecord(
        taken.player_id,
        grant_id_for(taken.player_id, client),
        client,
        taken.scopes,
        taken.redirect_uri,
        services.now_iso(),
        hash_secret(access),
        services.now_epoch() + ACCESS_SECONDS,
        hash_secret(refresh),
    )
    if not services.app_grants.put_app_grant(grant, code_hash=taken.code_hash):
        raise _invalid_grant(
            "the code was superseded by a later consent, the app was revoked, or the account is gone"
        )
    return _issued(grant, access, refresh)


def _issued(grant: AppGrantRecord, access: str, refresh: str) -> Issued:
    return Issued(
        f"{grant.player_id}.{grant.grant_id}.{access}",
        f"{grant.player_id}.{refresh_id(grant.grant_id)}.{refresh}",
        ACCESS_SECONDS,
        grant.scopes,
    )


def _parse_refresh(token: str) -> tuple[str, str, str]:
    parts = token.split(".")
    grant_id = grant_of_refresh_id(parts[1]) if len(parts) == 3 else None
    if grant_id is None or not parts[0].startswith("p_") or len(parts[0]) > 40 or not parts[2]:
        raise _invalid_grant("the refresh token is not valid")
    return parts[0], grant_id, parts[2]


def _was_rotated(grant: AppGrantRecord | None, presented: str) -> bool:
    return grant is not None and any(hmac.compare_digest(old, presented) for old in grant.rotated)


def _refresh(services: IssuingTokens, form: Mapping[str, str]) -> Issued:
    token, client_id = _required(form, "refresh_token", "client_id")
    client = _client(client_id)
    player_id, grant_id, secret = _parse_refresh(token)
    _, grant = services.app_grants.app_grant(player_id, grant_id)
    presented = hash_secret(secret)
    current = hmac.compare_digest(grant.refresh_hash if grant else hash_secret(""), presented)
    if grant is None or grant.client_id != client:
        raise _invalid_grant("the refresh token is not valid")
    asked = form.get("scope")
    if asked is not None and set(asked.split()) != set(grant.scopes):
        raise OAuthRefused("invalid_scope", "a refresh keeps the scopes the player granted")
    if current:
        access, refresh = new_secret(), new_secret()
        renewed = replace(
            grant,
            access_hash=hash_secret(access),
            access_expires_at=services.now_epoch() + ACCESS_SECONDS,
            refresh_hash=hash_secret(refresh),
            rotated=(*grant.rotated, grant.refresh_hash)[-ROTATED_KEPT:],
        )
        if services.app_grants.rotate_app_grant(grant, renewed):
            return _issued(renewed, access, refresh)
        # Another request rotated it first: this one is now a replay of a rotated token.
        _, grant = services.app_grants.app_grant(player_id, grant_id)
    if _was_rotated(grant, presented):
        services.app_grants.delete_app_grant(player_id, grant_id)
        raise OAuthRefused(
            "invalid_grant",
            "the refresh token was already used: every token of this app is revoked",
            revoked_for=player_id,
        )
    raise _invalid_grant("the refresh token is not valid")
