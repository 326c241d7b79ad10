"""Personal tokens: made by a player, from their own session, for their own scripts and bots.

A personal token is `p_<player>.t_<token>.<secret>`: the `t_` id tells it from a session's `s_` one, and,
as with sessions, the ids travel in it, so checking it is one read of the token item and the profile
beside it. Only the secret's SHA-256 is stored; the token is shown once, when it is made. It holds the
scopes it was given (never `account:owner`: app.players.scopes), has no expiry of its own, and stops
working the moment it is revoked (the item is gone). docs/tokens.md tells the whole story.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterable
from datetime import timedelta
from typing import TYPE_CHECKING

from app.core import rates
from app.core.errors import (
    Conflict,
    InsufficientScope,
    InvalidInput,
    NotAuthenticated,
    NotFound,
    VersionConflict,
)
from app.core.records import PlayerRecord
from app.players.credential_ids import is_token_id
from app.players.last_use import note_use
from app.players.ports import CheckingPersonalTokens, PersonalTokenRecord, PersonalTokens
from app.players.scopes import GRANTABLE, Scope, ordered
from app.players.token_secrets import hash_secret, new_secret
from dixit.text import check_token_name

if TYPE_CHECKING:
    from app.players.accounts import SignedIn

# Enough for a player's bots and front-ends; a cap keeps one account from filling its partition.
MAX_PERSONAL_TOKENS = 20
# Reads must not become writes: a token's last use is recorded at most once in this long (a bot polling
# every few seconds costs one small write a minute, not one per request).
USE_GRANULARITY = timedelta(minutes=1)
_INVALID = ("invalid_token", "the token is not valid")


def new_token_id() -> str:
    return f"t_{secrets.token_hex(8)}"


def check_scopes(requested: Iterable[str]) -> tuple[str, ...]:
    """The scopes a new token may hold: at least one, each grantable (the schema names the known ones)."""
    asked = set(requested)
    if Scope.OWNER.value in asked:
        raise InvalidInput(
            "scope_not_grantable", f"no token but your own session may hold {Scope.OWNER.value}"
        )
    unknown = sorted(asked - {scope.value for scope in GRANTABLE})
    if unknown:
        raise InvalidInput("unknown_scope", f"there is no scope {unknown[0][:40]}")
    if not asked:
        raise InvalidInput("no_scopes", "give the token at least one scope")
    return ordered(asked)


def _owner_session(signed: SignedIn) -> None:
    # The route table already keeps these routes to sessions; a token never makes or sees tokens.
    if signed.scopes is not None:
        raise InsufficientScope(Scope.OWNER.value)


def create(
    services: PersonalTokens, signed: SignedIn, name: str, scopes: Iterable[str]
) -> tuple[PersonalTokenRecord, str]:
    """A new personal token of the caller and its secret form (shown once)."""
    _owner_session(signed)
    player_id = signed.player.player_id
    secret = new_secret()
    token = PersonalTokenRecord(
        player_id,
        new_token_id(),
        check_token_name(name),
        check_scopes(scopes),
        hash_secret(secret),
        services.now_iso(),
    )
    try:
        made = services.personal_tokens.create_personal_token(token, limit=MAX_PERSONAL_TOKENS)
    except VersionConflict:
        # Our own write whose answer was lost (the stored hash is ours), unless the id was taken.
        _, stored = services.personal_tokens.personal_token(player_id, token.token_id)
        if stored is None or stored.token_hash != token.token_hash:
            raise
        made = True
    if not made:
        raise Conflict(
            "too_many_personal_tokens",
            f"you hold {MAX_PERSONAL_TOKENS} personal tokens: revoke one before making another",
        )
    return token, f"{player_id}.{token.token_id}.{secret}"


def list_tokens(services: PersonalTokens, signed: SignedIn) -> list[PersonalTokenRecord]:
    """Every personal token of the caller, oldest first (never a secret or its hash)."""
    _owner_session(signed)
    return services.personal_tokens.list_personal_tokens(signed.player.player_id)


def revoke(services: PersonalTokens, signed: SignedIn, token_id: str) -> None:
    """Revoke one of the caller's tokens: its next request is a 401."""
    _owner_session(signed)
    if not is_token_id(token_id) or not services.personal_tokens.delete_personal_token(
        signed.player.player_id, token_id
    ):
        raise NotFound("personal_token_not_found", f"you have no personal token {token_id[:40]}")


def check(
    services: CheckingPersonalTokens, player_id: str, token_id: str, secret: str
) -> tuple[PlayerRecord, PersonalTokenRecord]:
    """The player and token a personal token's secret proves, or NotAuthenticated; RateLimited (with
    Retry-After) once the token has used up its minute's or its day's requests."""
    player, token = services.personal_tokens.personal_token(player_id, token_id)
    # Compare even when the token is unknown, so timing does not reveal which ids exist.
    matches = hmac.compare_digest(token.token_hash if token else hash_secret(""), hash_secret(secret))
    if player is None or token is None or not matches:
        raise NotAuthenticated(*_INVALID)
    # Only a proven token is counted: nobody can use up another player's requests by naming their token.
    # The minute first, so a flood refused by it costs one write a request and takes nothing of the day.
    key = f"{player_id}.{token_id}"
    rates.claim(services, rates.PERSONAL_TOKEN_PER_MINUTE, key)
    rates.claim(services, rates.PERSONAL_TOKEN_PER_DAY, key)
    _note_use(services, token)
    return player, token


def _note_use(services: PersonalTokens, token: PersonalTokenRecord) -> None:
    def touch(**when: str) -> None:
        services.personal_tokens.touch_personal_token(token.player_id, token.token_id, **when)

    note_use(services, token.last_used_at, USE_GRANULARITY, touch, "a personal token")
