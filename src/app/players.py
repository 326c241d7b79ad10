"""Registering players and recognising them by their bearer token."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from app.errors import NotAuthenticated, VersionConflict
from app.records import PlayerRecord
from app.services import Services
from dixit.engine import check_name

_TOKEN_BYTES = 32  # 256 bits of secret


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def new_player_id() -> str:
    return f"p_{secrets.token_hex(8)}"


def register(services: Services, name: str) -> tuple[PlayerRecord, str]:
    """A new player and their token; only the token's hash is stored, so it is shown this once."""
    player_id = new_player_id()
    secret = secrets.token_urlsafe(_TOKEN_BYTES)
    record = PlayerRecord(player_id, check_name(name), _hash(secret), services.now_iso())
    try:
        services.store.create_player(record)
    except VersionConflict:
        # Refused as a duplicate: our own write, whose answer was lost and retried, unless the id was taken.
        if services.store.get_player(player_id) != record:
            raise
    # The id travels in the token so authentication is one GetItem, not a token index.
    return record, f"{player_id}.{secret}"


def authenticate(services: Services, authorization: str | None) -> PlayerRecord:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise NotAuthenticated("missing_token", "send 'Authorization: Bearer <token>'")
    player_id, _, secret = token.strip().partition(".")
    if not player_id.startswith("p_") or not secret or len(player_id) > 40:
        raise NotAuthenticated("invalid_token", "the token is not valid")
    player = services.store.get_player(player_id)
    # Compare even when the player is unknown, so timing does not reveal which ids exist.
    expected = player.token_hash if player is not None else _hash("")
    if not hmac.compare_digest(expected, _hash(secret)) or player is None:
        raise NotAuthenticated("invalid_token", "the token is not valid")
    return player
