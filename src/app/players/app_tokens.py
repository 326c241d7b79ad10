"""Apps' tokens: what a player let a third-party app do (granted through OAuth, app.oauth), checked on
every request like a personal token, listed and revoked by the player.

An access token is `p_<player>.a_<grant>.<secret>` and lives an hour; the refresh token beside it,
`p_<player>.r_<grant>.<secret>`, is only ever sent to `POST /oauth/token` (a bearer `r_` is no token).
The ids travel in them, so checking one is one read of the grant and the profile. Only hashes are kept.
Revoking the grant (or erasing the account) deletes its item: its tokens stop at once.
docs/tokens.md tells the whole story.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import timedelta

from app.core import rates
from app.core.errors import InsufficientScope, NotAuthenticated, NotFound
from app.core.records import PlayerRecord
from app.players.credential_ids import is_grant_id
from app.players.last_use import note_use
from app.players.ports import AppGrantRecord, AppGrants, CheckingAppTokens
from app.players.scopes import Scope
from app.players.token_secrets import hash_secret

# Reads must not become writes: an app's last use is recorded at most once in this long.
USE_GRANULARITY = timedelta(minutes=1)
_INVALID = ("invalid_token", "the token is not valid")


def grant_id_for(player_id: str, client_id: str) -> str:
    """One grant per player and app: approving the same app again replaces its grant (and its tokens),
    so the player's list shows each app once and cannot fill up with one app's repeated sign-ins."""
    digest = hashlib.sha256(f"{player_id}\x00{client_id}".encode()).hexdigest()
    return f"a_{digest[:16]}"


def refresh_id(grant_id: str) -> str:
    """The middle part of a grant's refresh token (`r_…`: never accepted as a bearer token)."""
    return "r_" + grant_id.removeprefix("a_")


def grant_of_refresh_id(refresh: str) -> str | None:
    grant_id = "a_" + refresh.removeprefix("r_")
    return grant_id if refresh.startswith("r_") and is_grant_id(grant_id) else None


def _owner_session(scopes: frozenset[str] | None) -> None:
    # The route table keeps these routes to sessions; no token sees or revokes apps.
    if scopes is not None:
        raise InsufficientScope(Scope.OWNER.value)


def list_apps(services: AppGrants, player_id: str, scopes: frozenset[str] | None) -> list[AppGrantRecord]:
    """Every app the player let act for them, oldest first."""
    _owner_session(scopes)
    return services.app_grants.list_app_grants(player_id)


def revoke(services: AppGrants, player_id: str, scopes: frozenset[str] | None, grant_id: str) -> None:
    """Revoke an app: its access and refresh tokens stop working at once."""
    _owner_session(scopes)
    if not is_grant_id(grant_id) or not services.app_grants.delete_app_grant(player_id, grant_id):
        raise NotFound("app_not_found", f"you let no app {grant_id[:40]} act for you")


def check(
    services: CheckingAppTokens, player_id: str, grant_id: str, secret: str
) -> tuple[PlayerRecord, AppGrantRecord]:
    """The player and grant an app's access token proves, or NotAuthenticated (`token_expired` once its
    hour is over: the app refreshes it); RateLimited past its minute's or day's requests."""
    player, grant = services.app_grants.app_grant(player_id, grant_id)
    # Compare even when the grant is unknown, so timing does not reveal which ids exist.
    matches = hmac.compare_digest(grant.access_hash if grant else hash_secret(""), hash_secret(secret))
    if player is None or grant is None or not matches:
        raise NotAuthenticated(*_INVALID)
    if services.now_epoch() >= grant.access_expires_at:
        raise NotAuthenticated("token_expired", "the access token has expired: refresh it at /oauth/token")
    key = f"{player_id}.{grant_id}"
    rates.claim(services, rates.APP_TOKEN_PER_MINUTE, key)
    rates.claim(services, rates.APP_TOKEN_PER_DAY, key)
    _note_use(services, grant)
    return player, grant


def _note_use(services: AppGrants, grant: AppGrantRecord) -> None:
    def touch(**when: str) -> None:
        services.app_grants.touch_app_grant(grant.player_id, grant.grant_id, **when)

    note_use(services, grant.last_used_at, USE_GRANULARITY, touch, "an app")
