"""Registering players, their sessions, and recognising them by their bearer token.

A token is `p_<player>.s_<session>.<secret>`: the ids travel in it, so authentication is one read of the
session (and the profile beside it), never a token index. Only the secret's SHA-256 is stored. A token
from before sessions, `p_<player>.<secret>`, is the player's legacy session, whose hash is on the profile.
A personal token, `p_<player>.t_<token>.<secret>`, is checked by app.players.personal_tokens, and an
app's access token, `p_<player>.a_<grant>.<secret>`, by app.players.app_tokens; each signs the request in
with its scopes only.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import field, replace
from datetime import datetime, timedelta

from app.core.errors import (
    Conflict,
    InsufficientScope,
    NotAuthenticated,
    NotFound,
    VersionConflict,
)
from app.core.records import PlayerRecord
from app.players.credential_ids import is_grant_id, is_session_id, is_token_id
from app.players.last_use import note_use
from app.players.ports import (
    LEGACY_SESSION,
    AppGrantRecord,
    Authenticating,
    Opening,
    PersonalTokenRecord,
    Players,
    Registering,
    SessionRecord,
    Sessions,
)
from app.players.scopes import Scope
from app.players.token_secrets import hash_secret, new_secret
from dixit.engine import check_name
from dixit.lean_dataclass import dataclass
from dixit.text import check_device as check_device_label

DEFAULT_DEVICE = "unnamed device"
# Reads must not become writes: a session's last use is recorded at most once in this long.
LAST_USED_GRANULARITY = timedelta(hours=1)
# The route whose retry may be authenticated by the token it replaced (with the same Idempotency-Key).
ROTATE_ROUTE = "POST /players/me/tokens"
_INVALID = ("invalid_token", "the token is not valid")


def new_player_id() -> str:
    return f"p_{secrets.token_hex(8)}"


def new_session_id() -> str:
    return f"s_{secrets.token_hex(8)}"


def _token(player_id: str, session_id: str, secret: str) -> str:
    return f"{player_id}.{session_id}.{secret}"


def rotation_key_id(player_id: str, key: str) -> str:
    """What a rotation under `key` is recorded as (never the key itself)."""
    text = json.dumps([player_id, key, ROTATE_ROUTE], separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _derived_secret(old_secret: str, key_id: str) -> str:
    """The secret a rotation under a key gives: a retry holding the old secret gets the same one."""
    digest = hmac.new(old_secret.encode(), key_id.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


@dataclass(frozen=True, slots=True)
class SignedIn:
    """Who sent the request, over which session, personal token or app's grant (exactly one of the
    three); `replay` is the answer a retried rotation gets."""

    player: PlayerRecord
    session: SessionRecord | None
    secret: str = field(repr=False, compare=False)
    replay: str | None = field(default=None, repr=False, compare=False)
    token: PersonalTokenRecord | None = None
    app: AppGrantRecord | None = None

    @property
    def session_id(self) -> str:
        """The id of the credential the request came with: a session's (`s_…`), a personal token's
        (`t_…`) or an app's grant's (`a_…`)."""
        if self.session is not None:
            return self.session.session_id
        return self.app.grant_id if self.app is not None else self.own_token().token_id

    @property
    def scopes(self) -> frozenset[str] | None:
        """What the credential may do: None for a session (everything), a token's or an app's scopes."""
        if self.app is not None:
            return frozenset(self.app.scopes)
        return None if self.token is None else frozenset(self.token.scopes)

    def own_session(self) -> SessionRecord:
        """The caller's session; a personal token never acts on sessions (the owner's scope)."""
        if self.session is None:
            raise InsufficientScope(Scope.OWNER.value)
        return self.session

    def own_token(self) -> PersonalTokenRecord:
        if self.token is None:
            raise AssertionError("signed in by a session")
        return self.token


def check_device(device: str) -> str:
    return check_device_label(device)


def register(services: Registering, name: str, device: str = DEFAULT_DEVICE) -> tuple[PlayerRecord, str]:
    """A new player and the token of their first session (shown this once)."""
    label = check_device(device)
    player_id = new_player_id()
    now = services.now_iso()
    expires_at = services.now_epoch() + services.settings.idle_player_days * 86_400
    record = PlayerRecord(player_id, check_name(name), "", now, now, expires_at=expires_at)
    try:
        services.players.create_player(record)
    except VersionConflict:
        # Refused as a duplicate: our own write, whose answer was lost and retried, unless the id was taken.
        if services.players.get_player(player_id) != record:
            raise
    _, token = open_session(services, record, label)
    return record, token


def open_session(services: Opening, player: PlayerRecord, device: str) -> tuple[SessionRecord, str]:
    """A new session of `player` on `device` and its token (shown once): what signing in gives."""
    label = check_device(device)
    secret = new_secret()
    now = services.now_iso()
    session = SessionRecord(player.player_id, new_session_id(), label, hash_secret(secret), now, now, now)
    try:
        services.sessions.create_session(session)
    except VersionConflict:
        # Our own write whose answer was lost (the stored hash is ours), unless the id was taken.
        _, stored = services.sessions.signed_in(player.player_id, session.session_id)
        if stored is None or stored.token_hash != session.token_hash:
            raise
    return session, _token(player.player_id, session.session_id, secret)


def rotate_token(services: Opening, signed: SignedIn, key: str | None = None) -> tuple[PlayerRecord, str]:
    """A new token for the current session (shown once); the one it replaces stops working.

    Under an Idempotency-Key the new secret is derived from the old one and the key, so a retry whose
    answer was lost (sent with the old token and the same key) is answered the same token again.
    """
    if signed.replay is not None:
        return signed.player, signed.replay
    session = signed.own_session()
    key_id = rotation_key_id(signed.player.player_id, key) if key is not None else ""
    secret = _derived_secret(signed.secret, key_id) if key_id else new_secret()
    new_hash = hash_secret(secret)
    now = services.now_iso()
    if not services.sessions.replace_token(
        session.player_id,
        session.session_id,
        old_hash=session.token_hash,
        new_hash=new_hash,
        issued_at=now,
        rotated_under=key_id,
    ):
        # A write whose answer was lost is retried and fails its own condition: the stored hash tells.
        _, stored = services.sessions.signed_in(session.player_id, session.session_id)
        if stored is None or stored.token_hash != new_hash:
            raise Conflict("token_changed", "the token was rotated or revoked by another request")
    return signed.player, _token(session.player_id, session.session_id, secret)


def revoke_token(services: Sessions, signed: SignedIn) -> None:
    """The current session ends: every later request with its token is a 401 (the others keep working)."""
    session = signed.own_session()
    if services.sessions.delete_session(session.player_id, session.session_id, token_hash=session.token_hash):
        return
    _, stored = services.sessions.signed_in(session.player_id, session.session_id)
    if stored is not None:
        raise Conflict("token_changed", "the token was rotated or revoked by another request")


def sessions_of(services: Sessions, signed: SignedIn) -> list[SessionRecord]:
    """Every session of the caller, oldest first."""
    signed.own_session()
    return services.sessions.list_sessions(signed.player.player_id)


def end_session(services: Sessions, signed: SignedIn, session_id: str) -> None:
    """Sign one session out: another device's, or this one (as a revoke)."""
    signed.own_session()
    if session_id == signed.session_id:
        revoke_token(services, signed)
        return
    if not is_session_id(session_id) or not services.sessions.delete_session(
        signed.player.player_id, session_id
    ):
        raise NotFound("session_not_found", f"you have no session {session_id[:40]}")


def end_other_sessions(services: Sessions, signed: SignedIn) -> None:
    """Sign out everywhere but here."""
    signed.own_session()
    for session in sessions_of(services, signed):
        if session.session_id != signed.session_id:
            services.sessions.delete_session(session.player_id, session.session_id)


def rename(services: Players, player: PlayerRecord, name: str) -> PlayerRecord:
    """A new name for new games; the games already started or finished keep the one they were given."""
    cleaned = check_name(name)
    if not services.players.rename_player(player.player_id, cleaned):
        raise NotAuthenticated(*_INVALID)
    return replace(player, name=cleaned)


def _expired(services: Authenticating, session: SessionRecord) -> bool:
    max_age = services.settings.token_max_age_seconds
    if max_age is None:
        return False
    issued = datetime.fromisoformat(session.issued_at)
    return services.clock() - issued > timedelta(seconds=max_age)


def _parse(authorization: str | None) -> tuple[str, str, str]:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise NotAuthenticated("missing_token", "send 'Authorization: Bearer <token>'")
    parts = token.strip().split(".")
    if len(parts) == 2:
        player_id, session_id, secret = parts[0], LEGACY_SESSION, parts[1]
    elif len(parts) == 3:
        player_id, session_id, secret = parts
    else:
        raise NotAuthenticated(*_INVALID)
    credential_is_known = is_session_id(session_id) or is_token_id(session_id) or is_grant_id(session_id)
    if not player_id.startswith("p_") or len(player_id) > 40 or not secret or not credential_is_known:
        raise NotAuthenticated(*_INVALID)
    return player_id, session_id, secret


def _rotation_remembered(services: Authenticating, session: SessionRecord, key_id: str) -> bool:
    """The session was last rotated under this key, recently enough for the key to be remembered."""
    if not session.rotated_under or not hmac.compare_digest(session.rotated_under, key_id):
        return False
    issued = datetime.fromisoformat(session.issued_at)
    return services.clock() - issued <= timedelta(seconds=services.settings.idempotency_ttl_seconds)


def authenticate(
    services: Authenticating, authorization: str | None, *, rotation_key: str | None = None
) -> SignedIn:
    """The caller of a request with this Authorization header.

    `rotation_key` is the Idempotency-Key of a rotation request (None on every other route): only there
    is the token a keyed rotation replaced accepted, to be answered the token it was replaced by.
    """
    player_id, session_id, secret = _parse(authorization)
    if is_token_id(session_id):
        # A personal token rotates nothing: an Idempotency-Key changes nothing about how it is checked.
        # Its module comes with the requests that present one, not with every session's (issue 36).
        from app.players import personal_tokens

        owner, token = personal_tokens.check(services, player_id, session_id, secret)
        return SignedIn(owner, None, secret, token=token)
    if is_grant_id(session_id):
        from app.players import app_tokens

        owner, grant = app_tokens.check(services, player_id, session_id, secret)
        return SignedIn(owner, None, secret, app=grant)
    player, session = services.sessions.signed_in(player_id, session_id)
    presented = hash_secret(secret)
    # Compare even when the session is unknown, so timing does not reveal which ids exist.
    current = hmac.compare_digest(session.token_hash if session else hash_secret(""), presented)
    previous = hmac.compare_digest(session.previous_hash if session else hash_secret(""), presented)
    if player is None or session is None or not session.token_hash:
        raise NotAuthenticated(*_INVALID)
    key_id = rotation_key_id(player_id, rotation_key) if rotation_key is not None else ""
    if current:
        # Only the holder of the right secret learns that it has expired.
        if _expired(services, session):
            raise NotAuthenticated(
                "token_expired",
                "the token has expired: rotate it (POST /players/me/tokens) before it does",
            )
        _note_use(services, session)
        signed = SignedIn(player, session, secret)
        if key_id and _rotation_remembered(services, session, key_id):
            # The same key again, now with the token it gave: the same answer, no second rotation.
            return replace(signed, replay=_token(player_id, session_id, secret))
        return signed
    if previous and session.previous_hash and key_id and _rotation_remembered(services, session, key_id):
        renewed = _derived_secret(secret, key_id)
        if hmac.compare_digest(hash_secret(renewed), session.token_hash):
            return SignedIn(player, session, secret, replay=_token(player_id, session_id, renewed))
    raise NotAuthenticated(*_INVALID)


def _note_use(services: Authenticating, session: SessionRecord) -> None:
    """Record the session's use, coarsely: at most one conditional write an hour, never on other reads."""

    def touch(**when: str) -> None:
        services.sessions.touch(session.player_id, session.session_id, **when)

    note_use(services, session.last_used_at, LAST_USED_GRANULARITY, touch, "a session")
