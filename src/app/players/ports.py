"""What the players feature needs from storage: profiles, and the sessions that sign a player in; and the
few ports each of its use cases reads (the composition's Services has them all, and so fits each).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Literal, Protocol

from app.core.clock import Clock, WallClock
from app.core.rates import Counted
from app.core.records import PlayerRecord
from dixit.lean_dataclass import dataclass

if TYPE_CHECKING:
    from app.core.settings import AppSettings

# The session of a token from before sessions (`p_<id>.<secret>`): its hash lives on the profile.
LEGACY_SESSION = "s_legacy"
LEGACY_DEVICE = "device from before sessions"


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """One signed-in device: only the hash of its token is kept, never the token."""

    player_id: str
    session_id: str
    device: str
    token_hash: str
    created_at: str
    last_used_at: str
    issued_at: str  # when its current token was issued (a rotation restarts the maximum age)
    # A rotation under an Idempotency-Key keeps the hash it replaced and the key's id, so a retry with
    # the old token and the same key is recognised and answered the same new token (never stored).
    previous_hash: str = ""
    rotated_under: str = ""


@dataclass(frozen=True, slots=True)
class PersonalTokenRecord:
    """A token a player made for a script or a bot: its name, its scopes, and only the hash of its secret."""

    player_id: str
    token_id: str  # t_<16 hex digits>
    name: str
    scopes: tuple[str, ...]  # app.players.scopes.ordered: never account:owner
    token_hash: str
    created_at: str
    last_used_at: str = ""  # "" until first used; then to within PERSONAL_TOKEN_USE_GRANULARITY


@dataclass(frozen=True, slots=True)
class AppGrantRecord:
    """What a player let a third-party app do (OAuth, app.oauth): one grant per player and app.

    The app holds an access token (`p_<player>.a_<grant>.<secret>`, short-lived) and a refresh token
    (`p_<player>.r_<grant>.<secret>`, rotated on every use); only their hashes are kept. Refreshing swaps
    both; the refresh secrets already rotated away are remembered (their hashes, the last few) so that a
    replayed one is recognised as a stolen copy and the whole grant revoked.
    """

    player_id: str
    grant_id: str  # a_<16 hex digits>: app.players.app_tokens.grant_id_for(player, client_id)
    client_id: str  # the app's own name or URL: no registration
    scopes: tuple[str, ...]  # app.players.scopes.ordered: never account:owner
    redirect_uri: str
    created_at: str
    access_hash: str
    access_expires_at: int  # epoch seconds
    refresh_hash: str
    rotated: tuple[str, ...] = ()  # hashes of refresh secrets rotated away, oldest first
    last_used_at: str = ""  # "" until first used; then to within a minute


class PlayerStore(Protocol):
    def create_player(self, player: PlayerRecord) -> None:
        """Raises VersionConflict when the id is taken."""
        ...

    def get_player(self, player_id: str) -> PlayerRecord | None: ...

    def rename_player(self, player_id: str, name: str) -> bool:
        """Give the profile a new name (False when there is no such player)."""
        ...

    def keep_player(self, player_id: str) -> None:
        """Take the expiry off a player's profile (they sat down at a table); nothing if there is none."""
        ...

    def delete_player_data(self, player_id: str) -> int:
        """Erase every item stored under the player's partition `PLAYER#<player_id>`, whatever its sort
        key (memberships, history, devices, mutes, webhooks, and any kind added later), and the email
        address they own: the ownership item of the profile's confirmed `email` (`EMAIL#<address_id>` /
        `OWNER`) goes too, unless it names another player. The profile and the sessions go last,
        together, so that a delete interrupted before the end can be retried with the same token.
        Idempotent; returns how many items it deleted.

        It deletes nothing outside those keys: push endpoints (the caller deletes them first, through
        the push channel) and items under other partitions (games, feeds, delivery attempts) are not
        its business.
        """
        ...


class SessionStore(Protocol):
    """Sessions are `PLAYER#<id>` / `SESSION#<sid>` items; the legacy session is the profile's token."""

    def create_session(self, session: SessionRecord) -> None:
        """Raises VersionConflict when the id is taken."""
        ...

    def signed_in(self, player_id: str, session_id: str) -> tuple[PlayerRecord | None, SessionRecord | None]:
        """The profile and the session, in one read (either None when missing; a revoked legacy
        session is None)."""
        ...

    def list_sessions(self, player_id: str) -> list[SessionRecord]:
        """Every live session of the player, the legacy one included, oldest first."""
        ...

    def replace_token(
        self,
        player_id: str,
        session_id: str,
        *,
        old_hash: str,
        new_hash: str,
        issued_at: str,
        rotated_under: str = "",
    ) -> bool:
        """Swap the session's token hash if it is still `old_hash`, keeping `old_hash` as the previous one
        when `rotated_under` names a key (cleared otherwise). False when another request won."""
        ...

    def delete_session(self, player_id: str, session_id: str, *, token_hash: str | None = None) -> bool:
        """Sign the session out, if it exists (and still has `token_hash`, when given)."""
        ...

    def touch(self, player_id: str, session_id: str, *, used_at: str, older_than: str) -> None:
        """Set last_used_at to `used_at` if it is older than `older_than` (else leave it: a lost race)."""
        ...


class PersonalTokenStore(Protocol):
    """Personal tokens are `PLAYER#<id>` / `PTOKEN#<tid>` items beside the sessions; the profile counts
    them (`personal_tokens`), so a cap holds under concurrent creations."""

    def create_personal_token(self, token: PersonalTokenRecord, *, limit: int) -> bool:
        """Store the token and count it on the profile, in one transaction, unless the player already
        holds `limit` tokens or has no profile (False). Raises VersionConflict when the id is taken."""
        ...

    def personal_token(
        self, player_id: str, token_id: str
    ) -> tuple[PlayerRecord | None, PersonalTokenRecord | None]:
        """The profile and the token, in one read (either None when missing)."""
        ...

    def list_personal_tokens(self, player_id: str) -> list[PersonalTokenRecord]:
        """Every personal token of the player, oldest first."""
        ...

    def delete_personal_token(self, player_id: str, token_id: str) -> bool:
        """Revoke the token and count it off the profile, in one transaction (False: no such token)."""
        ...

    def touch_personal_token(self, player_id: str, token_id: str, *, used_at: str, older_than: str) -> None:
        """Set last_used_at to `used_at` if it is older than `older_than` (else leave it: a lost race);
        never brings a revoked token back."""
        ...


class AppGrantStore(Protocol):
    """Apps' grants are `PLAYER#<id>` / `APP#<gid>` items beside the sessions and personal tokens; the
    newest OAuth code the player gave each app is noted beside them (`APPCODE#<gid>`, until it expires)."""

    def note_app_code(self, player_id: str, grant_id: str, code_hash: str, expires_at: int) -> None:
        """Note `code_hash` as the newest code the player gave the app `grant_id` is for: every code given
        before it can no longer make the grant (a new consent supersedes them)."""
        ...

    def put_app_grant(self, grant: AppGrantRecord, *, code_hash: str | None = None) -> bool:
        """Store the grant made from the code `code_hash`, replacing the player's earlier grant to the same
        app (its tokens stop), if the player's profile exists and that code is still the app's noted
        newest (neither superseded nor revoked since), using the note up, in one write. False otherwise:
        an account erased, a consent given or the app revoked meanwhile gets nothing. The token endpoint
        always names its code; None (no code to check) is only for grants seeded by tests."""
        ...

    def app_grant(self, player_id: str, grant_id: str) -> tuple[PlayerRecord | None, AppGrantRecord | None]:
        """The profile and the grant, in one read (either None when missing)."""
        ...

    def list_app_grants(self, player_id: str) -> list[AppGrantRecord]:
        """Every grant of the player, oldest first."""
        ...

    def rotate_app_grant(self, old: AppGrantRecord, new: AppGrantRecord) -> bool:
        """Replace the grant's tokens (hashes, expiry, rotated list) with `new`'s if its refresh hash is
        still `old.refresh_hash`: True for the one request that does."""
        ...

    def delete_app_grant(self, player_id: str, grant_id: str) -> bool:
        """Revoke the grant, every token of it and, in the same write, the code noted for the app (no code
        given before the revocation makes the grant again). False: no such grant."""
        ...

    def touch_app_grant(self, player_id: str, grant_id: str, *, used_at: str, older_than: str) -> None:
        """Set last_used_at to `used_at` if it is older than `older_than`; never brings a grant back."""
        ...


@dataclass(frozen=True, slots=True)
class PendingCode:
    """A code sent by mail, as it is kept: only its hash, until when it works, and the wrong tries so far.

    `email` is the normalized address a verification code confirms (empty for a sign-in code, whose item
    is keyed by the address's hash and never holds the address).
    """

    code_hash: str
    expires_at: int  # epoch seconds; also the item's TTL attribute
    attempts: int = 0
    email: str = ""


class Confirmed(StrEnum):
    """How confirming an address ended."""

    DONE = "done"  # the address is the player's now
    TAKEN = "taken"  # another player had confirmed it first
    GONE = "gone"  # the code was used, replaced or worn out meanwhile


class EmailStore(Protocol):
    """Addresses: who owns each (`EMAIL#<address id>` / `OWNER`), the code confirming a player's new one
    (`PLAYER#<id>` / `EMAIL_CODE`), sign-in codes (`SIGNIN#<address id>` / `CODE`) and the windows that
    limit how often each is asked for (`LIMIT#<scope>#<key>` / `W#<window>`).

    An address id is the SHA-256 of the normalized address (app.players.email.address_id).
    """

    def start_verification(self, player_id: str, pending: PendingCode) -> bool:
        """Keep `pending` as the player's one code (replacing any earlier) and note `pending.email` on the
        profile as awaiting it. False when there is no such player."""
        ...

    def verification(self, player_id: str) -> PendingCode | None:
        """The player's pending confirmation code, expired or not (None when there is none)."""
        ...

    def confirm_email(
        self, player_id: str, pending: PendingCode, *, address: str, previous: str, max_attempts: int
    ) -> Confirmed:
        """In one transaction: use up the code (still `pending.code_hash`, under `max_attempts` wrong
        tries), claim `address` (an address id) for the player unless another player owns it, release
        `previous` (the address id of the player's address before, or "") and put `pending.email` on
        the profile as their address (no longer pending)."""
        ...

    def owner_of(self, address: str) -> str | None:
        """The id of the player who confirmed the address with this id, if anyone did."""
        ...

    def put_sign_in_code(self, address: str, pending: PendingCode) -> None:
        """Keep `pending` as the address's one sign-in code (replacing any earlier)."""
        ...

    def sign_in_code(self, address: str) -> PendingCode | None:
        """The address's sign-in code, expired or not (None when there is none)."""
        ...

    def use_sign_in_code(self, address: str, code_hash: str, *, now: int, max_attempts: int) -> bool:
        """Delete the code if it is still `code_hash`, unexpired at `now` and under `max_attempts` wrong
        tries: True for the one request that does."""
        ...

    def count_wrong_code(self, key: CodeKey, code_hash: str, *, max_attempts: int) -> None:
        """One more wrong try of the code, if it is still `code_hash` (a new code starts again at 0)."""
        ...

    def claim_slot(self, scope: str, key: str, *, window: int, limit: int, expires_at: int) -> bool:
        """Count one request of `key` in `scope` during window number `window` unless `limit` were
        already counted there: False when the window is full."""
        ...


@dataclass(frozen=True, slots=True)
class CodeKey:
    """Which code: a player's confirmation code, or an address's sign-in code."""

    kind: Literal["verify", "sign_in"]
    owner: str  # the player id, or the address id


class Players(Protocol):
    """The profiles alone (a rename, a lookup)."""

    players: PlayerStore


class Sessions(Protocol):
    """A player's sessions alone (listing, ending them)."""

    sessions: SessionStore


class Opening(Sessions, Clock, Protocol):
    """Opening or rotating a session: its record, stamped with the clock."""


class PersonalTokens(Clock, WallClock, Protocol):
    """Making, listing and revoking a player's personal tokens."""

    personal_tokens: PersonalTokenStore


class CheckingPersonalTokens(PersonalTokens, Counted, Protocol):
    """Checking a personal token: its item, and the counters of its rates."""


class AppGrants(Clock, WallClock, Protocol):
    """Listing and revoking the apps a player let act for them."""

    app_grants: AppGrantStore


class CheckingAppTokens(AppGrants, Counted, Protocol):
    """Checking an app's access token: its grant, and the counters of its rates."""


class Registering(Opening, Players, Protocol):
    """A new player, with their first session (and an expiry until they sit at a table)."""

    settings: AppSettings


class Authenticating(Opening, CheckingPersonalTokens, CheckingAppTokens, Protocol):
    """Checking a token: its session or personal token, its age by the clock, the ages the settings
    allow."""

    settings: AppSettings

    # A property: a callable attribute would read as a method, which a dataclass field is not.
    @property
    def clock(self) -> Callable[[], datetime]: ...
