"""One-click unsubscribe (RFC 8058): signed links that need no sign-in, and what following one changes.

A token names a player and a scope: `email` (every notification mail) or `digest` (the daily digest),
signed with HMAC-SHA256 under the deployment's UNSUBSCRIBE_SECRET, so nobody can forge one for another
player, and nothing in it is secret. Only the one-click POST changes anything: mail scanners and link
previews open links (GET), and those only see what the POST would do.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import replace
from enum import StrEnum
from urllib.parse import quote

from app.core.errors import InvalidInput
from app.core.settings import AppSettings
from app.core.telemetry import count
from app.notify.ports import Settled, Unsubscribing
from app.notify.preferences import Channel

UNSUBSCRIBE_PATH = "/notifications/unsubscribe"
_VERSION = "u1"


class Scope(StrEnum):
    EMAIL = "email"  # every notification mail: your turn, reminders, game over
    DIGEST = "digest"


class InvalidUnsubscribeToken(InvalidInput):
    def __init__(self) -> None:
        super().__init__("invalid_unsubscribe_token", "this unsubscribe link is not valid")


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _signature(secret: str, payload: str) -> bytes:
    return hmac.new(secret.encode(), f"unsubscribe:{payload}".encode(), hashlib.sha256).digest()


def sign(secret: str, player_id: str, scope: Scope) -> str:
    if not secret:
        raise ValueError("unsubscribe tokens need UNSUBSCRIBE_SECRET")
    payload = f"{_VERSION}:{player_id}:{scope.value}"
    return f"{_b64(payload.encode())}.{_b64(_signature(secret, payload))}"


def verify(secret: str, token: str) -> tuple[str, Scope]:
    """The player and scope `token` was signed for; InvalidUnsubscribeToken otherwise."""
    try:
        encoded, signature = token.split(".")
        payload = _unb64(encoded).decode()
        given = _unb64(signature)
        version, player_id, scope = payload.split(":")
    except (ValueError, UnicodeDecodeError):
        raise InvalidUnsubscribeToken() from None
    if not secret or version != _VERSION or not hmac.compare_digest(given, _signature(secret, payload)):
        raise InvalidUnsubscribeToken()
    try:
        return player_id, Scope(scope)
    except ValueError:
        raise InvalidUnsubscribeToken() from None


def link(settings: AppSettings, player_id: str, scope: Scope) -> str | None:
    """The `List-Unsubscribe` URL for the player's `scope`; None when this deployment cannot sign one."""
    base = (settings.public_api_url or settings.web_base_url).rstrip("/")
    if not base or not settings.unsubscribe_secret:
        return None
    token = sign(settings.unsubscribe_secret, player_id, scope)
    return f"{base}{UNSUBSCRIBE_PATH}?token={quote(token, safe='')}"


def headers(url: str) -> tuple[tuple[str, str], ...]:
    """RFC 8058's two header fields: the link, and that a POST to it alone unsubscribes."""
    return (("List-Unsubscribe", f"<{url}>"), ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"))


def describe(scope: Scope) -> str:
    if scope is Scope.DIGEST:
        return "the daily digest email"
    return "email about your games (your turn, reminders, game over)"


def preview(services: Settled, token: str) -> Scope:
    """What the link would stop (GET): checks the token, changes nothing."""
    _, scope = verify(services.settings.unsubscribe_secret, token)
    return scope


def unsubscribe(services: Unsubscribing, token: str) -> Scope:
    """The one-click POST: stops what the token's scope names, for its player. Idempotent."""
    player_id, scope = verify(services.settings.unsubscribe_secret, token)
    if services.players.get_player(player_id) is None:
        return scope  # an erased account: nothing is mailed to it any more, and nothing is written back
    store = services.notifications
    current = store.preferences(player_id)
    if scope is Scope.DIGEST:
        changed = replace(current, digest_hour=None)
        services.digests.remove_digest(player_id)
    else:
        changed = replace(current, channels={**current.channels, Channel.EMAIL: frozenset()})
    if changed != current:
        store.save_preferences(player_id, changed)
    count(f"Unsubscribed_{scope.value}")
    return scope
