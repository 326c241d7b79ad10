"""One-click unsubscribe (RFC 8058): signed links that need no sign-in, and what following one changes.

A token names a player and a scope: `email` (every notification mail) or `digest` (the daily digest),
signed with HMAC-SHA256 under the deployment's UNSUBSCRIBE_SECRET, so nobody can forge one for another
player, and nothing in it is secret. Only the one-click POST changes anything: mail scanners and link
previews open links (GET), and those only see what the POST would do.

A link is a credential anyone holding the mail has, so it is a narrow one:
- it expires LINK_LIFETIME after it was mailed (a mail is read within days; an old one forwarded or left
  in an archive should not keep a switch on the player's settings): 422 `unsubscribe_link_expired`;
- it binds the address it was mailed to and the scope's link generation (how many times the player
  turned that scope back on, app.notify.preferences): once they change their address, or turn back on
  what a link stopped, the old link no longer stops anything: 422 `unsubscribe_link_outdated`. The
  binding is a keyed digest inside the signed payload, so the token shows neither the address nor the
  generation.
Tokens of the first format (`u1`, which never expired) are refused as expired.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import replace
from datetime import timedelta
from urllib.parse import quote

from app.core.errors import InvalidInput
from app.core.records import PlayerRecord
from app.core.settings import AppSettings
from app.core.telemetry import count
from app.notify.ports import UnsubscribeChecking, Unsubscribing
from app.notify.preferences import Channel, NotificationPreferences
from app.notify.preferences import UnsubscribeScope as Scope

UNSUBSCRIBE_PATH = "/notifications/unsubscribe"
_VERSION = "u2"
_EXPIRED_VERSIONS = ("u1",)  # signed before links expired: refused as expired, never as forged
LINK_LIFETIME = timedelta(days=30)
_BINDING_BYTES = 9  # 72 bits: guessing a binding is as hopeless as forging the signature it sits under

__all__ = ["LINK_LIFETIME", "UNSUBSCRIBE_PATH", "Scope"]


class InvalidUnsubscribeToken(InvalidInput):
    def __init__(self) -> None:
        super().__init__("invalid_unsubscribe_token", "this unsubscribe link is not valid")


class UnsubscribeLinkExpired(InvalidInput):
    def __init__(self) -> None:
        super().__init__(
            "unsubscribe_link_expired",
            f"this unsubscribe link is more than {LINK_LIFETIME.days} days old: use the link in a newer"
            " mail, or change what you receive in the app's notification settings",
        )


class UnsubscribeLinkOutdated(InvalidInput):
    def __init__(self) -> None:
        super().__init__(
            "unsubscribe_link_outdated",
            "this unsubscribe link was mailed before you changed your address or turned these mails"
            " back on: use the link in a newer mail, or the app's notification settings",
        )


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _signature(secret: str, payload: str) -> bytes:
    return hmac.new(secret.encode(), f"unsubscribe:{payload}".encode(), hashlib.sha256).digest()


def _binding(secret: str, player_id: str, scope: Scope, address: str, generation: int) -> str:
    """What ties a link to the address it was mailed to and the scope's generation, keyed (not a hash
    anyone could check an address against)."""
    bound = f"unsubscribe-binding:{player_id}:{scope.value}:{address.casefold()}:{generation}"
    return _b64(hmac.new(secret.encode(), bound.encode(), hashlib.sha256).digest()[:_BINDING_BYTES])


def sign(secret: str, player_id: str, scope: Scope, *, address: str, generation: int, issued_at: int) -> str:
    """A token for `player_id`'s `scope`, mailed at `issued_at` to `address` under `generation`."""
    if not secret:
        raise ValueError("unsubscribe tokens need UNSUBSCRIBE_SECRET")
    binding = _binding(secret, player_id, scope, address, generation)
    payload = f"{_VERSION}:{player_id}:{scope.value}:{issued_at}:{binding}"
    return f"{_b64(payload.encode())}.{_b64(_signature(secret, payload))}"


def sign_for(
    secret: str, player: PlayerRecord, scope: Scope, preferences: NotificationPreferences, now: int
) -> str:
    """A token for a mail to `player`'s current address, now."""
    assert player.email is not None  # only mail to an address carries a link
    generation = preferences.link_generation(scope)
    return sign(secret, player.player_id, scope, address=player.email, generation=generation, issued_at=now)


def _parsed(secret: str, token: str) -> tuple[str, Scope, int, str]:
    """The player, scope, issue time and binding a genuine token carries; InvalidUnsubscribeToken for a
    forged or altered one, UnsubscribeLinkExpired for a genuine one of a retired format."""
    try:
        encoded, signature = token.split(".")
        payload = _unb64(encoded).decode()
        given = _unb64(signature)
    except (ValueError, UnicodeDecodeError):
        raise InvalidUnsubscribeToken() from None
    if not secret or not hmac.compare_digest(given, _signature(secret, payload)):
        raise InvalidUnsubscribeToken()
    version, _, rest = payload.partition(":")
    if version in _EXPIRED_VERSIONS:
        raise UnsubscribeLinkExpired()
    try:
        player_id, scope, issued, binding = rest.split(":")
        if version != _VERSION:
            raise ValueError(version)
        return player_id, Scope(scope), int(issued), binding
    except ValueError:
        raise InvalidUnsubscribeToken() from None


def verify(services: UnsubscribeChecking, token: str) -> tuple[str, Scope, PlayerRecord | None]:
    """The player and scope a genuine, fresh and current `token` names (the player's record: None once
    their account is erased); InvalidUnsubscribeToken, UnsubscribeLinkExpired or UnsubscribeLinkOutdated
    otherwise."""
    secret = services.settings.unsubscribe_secret
    player_id, scope, issued, binding = _parsed(secret, token)
    if services.now_epoch() - issued > LINK_LIFETIME.total_seconds():
        raise UnsubscribeLinkExpired()
    player = services.players.get_player(player_id)
    if player is None:
        return player_id, scope, None  # an erased account: nothing to stop, nothing to tell about it
    generation = services.notifications.preferences(player_id).link_generation(scope)
    current = None if player.email is None else _binding(secret, player_id, scope, player.email, generation)
    if current is None or not hmac.compare_digest(current, binding):
        raise UnsubscribeLinkOutdated()
    return player_id, scope, player


def can_link(settings: AppSettings) -> bool:
    """Whether this deployment can sign unsubscribe links (a secret, and a base URL for them)."""
    return bool((settings.public_api_url or settings.web_base_url) and settings.unsubscribe_secret)


def link(settings: AppSettings, token: str) -> str:
    """The `List-Unsubscribe` URL carrying `token` (a deployment that `can_link`)."""
    base = (settings.public_api_url or settings.web_base_url).rstrip("/")
    return f"{base}{UNSUBSCRIBE_PATH}?token={quote(token, safe='')}"


def headers(url: str) -> tuple[tuple[str, str], ...]:
    """RFC 8058's two header fields: the link, and that a POST to it alone unsubscribes."""
    return (("List-Unsubscribe", f"<{url}>"), ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"))


def describe(scope: Scope) -> str:
    if scope is Scope.DIGEST:
        return "the daily digest email"
    return "email about your games (your turn, reminders, game over)"


def preview(services: UnsubscribeChecking, token: str) -> Scope:
    """What the link would stop (GET): checks the token, changes nothing."""
    _, scope, _ = verify(services, token)
    return scope


def unsubscribe(services: Unsubscribing, token: str) -> Scope:
    """The one-click POST: stops what the token's scope names, for its player. Idempotent."""
    player_id, scope, player = verify(services, token)
    if player is None:
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
