"""What OAuth needs from storage: the authorization codes (the grants are app.players.ports')."""

from __future__ import annotations

from typing import Protocol

from app.core.clock import Clock, WallClock
from app.players.ports import AppGrantStore
from dixit.lean_dataclass import dataclass


@dataclass(frozen=True, slots=True)
class AuthorizationCode:
    """A code the player's approval gave, kept only under its hash, bound to what it was given for."""

    code_hash: str  # sha256 hex of the code
    player_id: str
    client_id: str
    redirect_uri: str
    scopes: tuple[str, ...]
    code_challenge: str
    expires_at: int  # epoch seconds; also the item's TTL


class CodeStore(Protocol):
    """Codes are `OAUTHCODE#<code hash>` / `CODE` items, expiring by TTL."""

    def put_code(self, code: AuthorizationCode) -> None: ...

    def take_code(self, code_hash: str) -> AuthorizationCode | None:
        """Delete the code and answer what it was, for exactly one caller (a conditional delete): a
        replay, even racing the first use, gets None."""
        ...


class Authorizing(Clock, Protocol):
    """The player's approval: a code noted as the app's newest (the earlier ones superseded), then stored."""

    oauth_codes: CodeStore
    app_grants: AppGrantStore


class IssuingTokens(Clock, WallClock, Protocol):
    """The token endpoint: codes taken, grants written and rotated."""

    oauth_codes: CodeStore
    app_grants: AppGrantStore
