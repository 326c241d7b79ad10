"""Registering players and recognising them by their bearer token."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import replace
from datetime import datetime, timedelta

from app.core.errors import Conflict, NotAuthenticated, VersionConflict
from app.core.records import PlayerRecord
from app.core.services import Services
from dixit.engine import check_name

_TOKEN_BYTES = 32  # 256 bits of secret


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def new_player_id() -> str:
    return f"p_{secrets.token_hex(8)}"


def _new_secret() -> str:
    return secrets.token_urlsafe(_TOKEN_BYTES)


def register(services: Services, name: str) -> tuple[PlayerRecord, str]:
    """A new player and their token; only the token's hash is stored, so it is shown this once."""
    player_id = new_player_id()
    secret = _new_secret()
    now = services.now_iso()
    record = PlayerRecord(player_id, check_name(name), _hash(secret), now, now)
    try:
        services.players.create_player(record)
    except VersionConflict:
        # Refused as a duplicate: our own write, whose answer was lost and retried, unless the id was taken.
        if services.players.get_player(player_id) != record:
            raise
    # The id travels in the token so authentication is one GetItem, not a token index.
    return record, f"{player_id}.{secret}"


def rotate_token(services: Services, player: PlayerRecord) -> tuple[PlayerRecord, str]:
    """A new token for `player` (shown once); the one they authenticated with stops working."""
    secret = _new_secret()
    new_hash = _hash(secret)
    now = services.now_iso()
    _replace_token(services, player, new_hash, now)
    return replace(player, token_hash=new_hash, token_issued_at=now), f"{player.player_id}.{secret}"


def revoke_token(services: Services, player: PlayerRecord) -> None:
    """No token works for `player` any more: no secret hashes to the empty string stored instead."""
    _replace_token(services, player, "", services.now_iso())


def _replace_token(services: Services, player: PlayerRecord, new_hash: str, issued_at: str) -> None:
    if services.players.replace_token(
        player.player_id, old_hash=player.token_hash, new_hash=new_hash, issued_at=issued_at
    ):
        return
    # A write whose answer was lost is retried and fails its own condition: the stored hash tells.
    stored = services.players.get_player(player.player_id)
    if stored is None or stored.token_hash != new_hash:
        raise Conflict("token_changed", "the token was rotated or revoked by another request")


def _expired(services: Services, player: PlayerRecord) -> bool:
    max_age = services.settings.token_max_age_seconds
    if max_age is None:
        return False
    issued = datetime.fromisoformat(player.token_issued)
    return services.clock() - issued > timedelta(seconds=max_age)


def authenticate(services: Services, authorization: str | None) -> PlayerRecord:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise NotAuthenticated("missing_token", "send 'Authorization: Bearer <token>'")
    player_id, _, secret = token.strip().partition(".")
    if not player_id.startswith("p_") or not secret or len(player_id) > 40:
        raise NotAuthenticated("invalid_token", "the token is not valid")
    player = services.players.get_player(player_id)
    # Compare even when the player is unknown, so timing does not reveal which ids exist.
    expected = player.token_hash if player is not None else _hash("")
    if not hmac.compare_digest(expected, _hash(secret)) or player is None or not player.token_hash:
        raise NotAuthenticated("invalid_token", "the token is not valid")
    # Only the holder of the right secret learns that it has expired.
    if _expired(services, player):
        raise NotAuthenticated(
            "token_expired", "the token has expired: rotate it (POST /players/me/tokens) before it does"
        )
    return player
