"""Per-client rates the service counts itself: a fixed window per key, one conditional write per request.

API Gateway throttles the whole stage, and a usage plan each API key (template.yaml); what only the
service can tell apart (one source address registering, one player creating decks) is counted here, in
the table, with the same counter the sign-in limits use. The numbers are in docs/api.md (Quotas and rates).
"""

from __future__ import annotations

import hashlib
import ipaddress
from typing import Protocol

from app.core.clock import Clock
from app.core.errors import RateLimited
from dixit.lean_dataclass import dataclass


@dataclass(frozen=True, slots=True)
class Rate:
    """At most `limit` requests per `window_seconds` for one key of `scope` (429 `code` past it)."""

    scope: str
    limit: int
    window_seconds: int
    code: str
    detail: str


REGISTRATIONS_PER_SOURCE = Rate(
    "register-source", 20, 3_600, "too_many_registrations", "too many players were registered from here"
)
DECKS_PER_PLAYER = Rate("decks-player", 10, 86_400, "too_many_decks", "you created too many decks today")
# A personal token (a script's, a bot's) is counted on every request it signs; a player's own sessions are
# not (the stage throttle bounds them). A minute, not a second, is the short window: one counter item per
# token and minute, not one per second.
PERSONAL_TOKEN_PER_MINUTE = Rate(
    "ptoken-minute", 120, 60, "token_rate_limited", "this personal token sent too many requests this minute"
)
PERSONAL_TOKEN_PER_DAY = Rate(
    "ptoken-day", 10_000, 86_400, "token_daily_limit", "this personal token used up its requests for today"
)

# An app's access token (OAuth, docs/tokens.md) is counted like a personal token, under its grant.
APP_TOKEN_PER_MINUTE = Rate(
    "apptoken-minute", 120, 60, "token_rate_limited", "this app's token sent too many requests this minute"
)
APP_TOKEN_PER_DAY = Rate(
    "apptoken-day", 10_000, 86_400, "token_daily_limit", "this app's token used up its requests for today"
)


def source_key(source: str) -> str | None:
    """What a request's source address is counted under (never the address itself); None for loopback,
    which only the local stack's gateway sends (API Gateway always names the client's address)."""
    try:
        if ipaddress.ip_address(source).is_loopback:
            return None
    except ValueError:
        pass  # "unknown" and the like: counted together, the safe side
    return hashlib.sha256(f"source\x00{source}".encode()).hexdigest()


class SlotCounter(Protocol):
    """The fixed-window counter (app.players.ports.EmailStore keeps it, beside the sign-in limits')."""

    def claim_slot(self, scope: str, key: str, *, window: int, limit: int, expires_at: int) -> bool: ...


class Counted(Clock, Protocol):
    # Read-only: any store with the counter will do, not exactly the one a composition declares.
    @property
    def emails(self) -> SlotCounter: ...


def claim(services: Counted, rate: Rate, key: str | None) -> None:
    """Count one request of `key` against `rate`; RateLimited with Retry-After once it is used up."""
    if key is None:
        return
    now = services.now_epoch()
    window = now // rate.window_seconds
    ends = (window + 1) * rate.window_seconds
    if not services.emails.claim_slot(rate.scope, key, window=window, limit=rate.limit, expires_at=ends):
        raise RateLimited(rate.code, f"{rate.detail}; try again later", retry_after=max(1, ends - now))
