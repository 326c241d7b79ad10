"""A player's email address: attaching it (a code mailed to it confirms it), and signing in with it on
another device (a code mailed to it opens a session).

Codes are six digits, kept only as a SHA-256 over their purpose, the address and the code, compared in
constant time, used once, and dead after `MAX_ATTEMPTS` wrong tries or when they expire. Wrong tries kill
the code they were made against, never the address: a stranger's guesses cannot stop the owner asking for
a fresh code, and the limits on asking grow the wait (a minute, ten, an hour) rather than shut the door.

Asking for a sign-in code answers the same, in about the same time and with the same reads and writes,
whether or not the address belongs to anyone: only the mail itself is skipped for an address nobody
confirmed, and the request is held to a time floor (`AppSettings.sign_in_floor_seconds`) that covers
the mail's sending.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import replace
from datetime import UTC, datetime
from urllib.parse import quote

from app.core.clock import Clock
from app.core.errors import Conflict, InvalidInput, NotAuthenticated
from app.core.rates import Rate, claim
from app.core.records import PlayerRecord
from app.core.telemetry import logger
from app.notify.email.mail import MailNotConfigured, MailRefused, MailUnavailable, Suppressed
from app.notify.email.templates import sign_in_code, verify_email
from app.players.accounts import check_device, open_session
from app.players.addresses import address_id, normalize
from app.players.ports import CodeKey, Confirmed, PendingCode, SessionRecord
from app.signin.ports import Codes, Mailing, SigningIn, Verifying
from dixit.lean_dataclass import dataclass

SIGN_IN_SECONDS = 600  # a sign-in code works for 10 minutes
VERIFY_SECONDS = 900  # a confirmation code for 15
MAX_ATTEMPTS = 5  # wrong codes; the next try fails even with the right one
HOUR = 3_600
DAY = 86_400

SIGN_IN = "sign-in"
VERIFY = "verify-email"

# Each limit is a fixed window per key (app.core.rates): past it, 429 with Retry-After to the window's end.
# Sign-in codes to one address climb a ladder instead of hitting one wall: one a minute, three in ten
# minutes, five an hour, so the wait grows with the asking and never passes the hour, whoever asked. A
# stranger can make the owner wait, never shut them out, and every code asked for goes to the owner.
CODES_PER_ADDRESS = (
    Rate("signin-address-minute", 1, 60, "too_many_codes", "a code was sent to this address a moment ago"),
    Rate("signin-address-10min", 3, 600, "too_many_codes", "several codes were sent to this address"),
    Rate("signin-address", 5, HOUR, "too_many_codes", "too many codes were sent to this address"),
)
CODES_PER_SOURCE = Rate("signin-source", 20, HOUR, "too_many_requests", "too many sign-in requests from here")
# Tries are counted per source only: per address, a stranger's wrong tries would lock the owner out.
# Guessing is bounded by the codes instead: each dies after MAX_ATTEMPTS wrong tries, and an address gets
# at most five codes an hour.
TRIES_PER_SOURCE = Rate("verify-source", 50, HOUR, "too_many_attempts", "too many codes were tried from here")
# Confirmation codes go to any address a player types: limited per player and per address a day, and an
# address that never confirms stops getting them after a handful a year (the window's count, one item).
ATTACH_PER_PLAYER = Rate(
    "attach-player", 5, DAY, "too_many_codes", "you asked for too many confirmation codes today"
)
ATTACH_PER_ADDRESS = Rate(
    "attach-address", 3, DAY, "too_many_codes", "too many codes were sent to this address today"
)
ATTACH_PER_ADDRESS_EVER = Rate(
    "attach-address-year",
    6,
    365 * DAY,
    "too_many_codes",
    "this address has been sent confirmation codes that nobody used; it gets no more",
)
LIMITS = (
    *CODES_PER_ADDRESS,
    CODES_PER_SOURCE,
    TRIES_PER_SOURCE,
    ATTACH_PER_PLAYER,
    ATTACH_PER_ADDRESS,
    ATTACH_PER_ADDRESS_EVER,
)

_INVALID = ("code_invalid", "that is not the code we sent")
_EXPIRED = ("code_expired", "that code has expired or was used up: ask for a new one")


@dataclass(frozen=True, slots=True)
class Attaching:
    """A confirmation code is on its way to `email` (normalized); it works until `expires_at`."""

    email: str
    expires_at: str


@dataclass(frozen=True, slots=True)
class SignInSent:
    """What asking for a sign-in code answers, whoever the address belongs to."""

    sent_to: str
    expires_in: int


def source_id(source: str) -> str:
    """What a request's source address is counted under (never the address itself)."""
    return hashlib.sha256(f"source\x00{source}".encode()).hexdigest()


def code_hash(purpose: str, context: str, code: str) -> str:
    """A code as it is stored: bound to what it is for, so one sent for A never matches for B."""
    return hashlib.sha256(f"{purpose}\x00{context}\x00{code}".encode()).hexdigest()


def new_code() -> str:
    return f"{secrets.randbelow(1_000_000):06d}"


def _claim_signing_in(
    services: Codes, email: str, source: str, *, per_source: Rate, per_address: tuple[Rate, ...]
) -> tuple[str, str]:
    """Count a sign-in step against its source's limit, then its address's: the normalized address and
    its id."""
    address = normalize(email)
    key = address_id(address)
    claim(services, per_source, source_id(source))
    for rate in per_address:
        claim(services, rate, key)
    return address, key


def _link(services: Mailing, fragment: str) -> str | None:
    base = services.settings.web_base_url.rstrip("/")
    return f"{base}/#/{fragment}" if base else None


def _iso(epoch: int) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat().replace("+00:00", "Z")


def _dead(services: Clock, pending: PendingCode) -> bool:
    return pending.attempts >= MAX_ATTEMPTS or services.now_epoch() >= pending.expires_at


# Attaching an address


def attach_email(services: Mailing, player: PlayerRecord, email: str) -> Attaching:
    """Mail a confirmation code to `email`; the player's address changes only once it is confirmed.

    Whether another player owns the address is not told here (only confirming it is refused).
    """
    if not services.mailer.configured:
        raise MailNotConfigured()
    address = normalize(email)
    claim(services, ATTACH_PER_PLAYER, player.player_id)
    for rate in (ATTACH_PER_ADDRESS, ATTACH_PER_ADDRESS_EVER):
        claim(services, rate, address_id(address))
    code = new_code()
    expires_at = services.now_epoch() + VERIFY_SECONDS
    pending = PendingCode(code_hash(VERIFY, f"{player.player_id}\x00{address}", code), expires_at, 0, address)
    if not services.emails.start_verification(player.player_id, pending):
        raise NotAuthenticated("invalid_token", "the token is not valid")
    services.mailer.send(
        verify_email(address, code, _link(services, f"verify-email/{code}"), minutes=VERIFY_SECONDS // 60)
    )
    return Attaching(email=address, expires_at=_iso(expires_at))


def confirm_email(services: Codes, player: PlayerRecord, code: str) -> PlayerRecord:
    """The code mailed to the player's pending address makes it theirs (and frees the one before)."""
    store = services.emails
    pending = store.verification(player.player_id)
    if pending is None:
        raise InvalidInput(*_INVALID)
    if _dead(services, pending):
        raise InvalidInput(*_EXPIRED)
    expected = code_hash(VERIFY, f"{player.player_id}\x00{pending.email}", code)
    if not hmac.compare_digest(expected, pending.code_hash):
        store.count_wrong_code(
            CodeKey("verify", player.player_id), pending.code_hash, max_attempts=MAX_ATTEMPTS
        )
        raise InvalidInput(*_INVALID)
    before = player.email
    previous = address_id(before) if before and before != pending.email else ""
    outcome = store.confirm_email(
        player.player_id,
        pending,
        address=address_id(pending.email),
        previous=previous,
        max_attempts=MAX_ATTEMPTS,
    )
    if outcome is Confirmed.TAKEN:
        raise Conflict("email_taken", "another player has confirmed this address")
    if outcome is Confirmed.GONE:
        raise InvalidInput(*_EXPIRED)
    return replace(player, email=pending.email, pending_email="")


# Signing in with it


def request_sign_in(services: SigningIn, email: str, source: str) -> SignInSent:
    """Mail a sign-in code to `email` if a player confirmed it; answer the same either way.

    Both paths claim the same limits, read the owner, write a code (hashed) and build the mail; only the
    send is skipped for an address nobody owns, and the answer waits until the floor has passed.
    """
    started = time.perf_counter()
    if not services.mailer.configured:
        raise MailNotConfigured()
    address, key = _claim_signing_in(
        services, email, source, per_source=CODES_PER_SOURCE, per_address=CODES_PER_ADDRESS
    )
    store = services.emails
    owner = store.owner_of(key)
    code = new_code()
    store.put_sign_in_code(
        key, PendingCode(code_hash(SIGN_IN, address, code), services.now_epoch() + SIGN_IN_SECONDS)
    )
    link = _link(services, f"sign-in/{quote(address, safe='')}/{code}")
    mail = sign_in_code(address, code, link, minutes=SIGN_IN_SECONDS // 60)
    if owner is not None:
        try:
            services.mailer.send(mail)
        except (Suppressed, MailRefused, MailUnavailable) as failed:
            # Answered as a sent mail all the same: an error here would tell that the address is a player's.
            logger.warning("a sign-in mail was not sent", extra={"reason": failed.code})
    _hold_to_floor(services, started)
    return SignInSent(sent_to=email, expires_in=SIGN_IN_SECONDS)


def _hold_to_floor(services: SigningIn, started: float) -> None:
    floor = services.settings.sign_in_floor_seconds
    elapsed = time.perf_counter() - started
    if floor <= 0:
        return
    if elapsed > floor:
        # Past the floor, the time taken may tell a sent mail from a skipped one: worth knowing about.
        logger.warning(
            "a sign-in request took longer than its time floor", extra={"elapsed": round(elapsed, 3)}
        )
        return
    services.pause(floor - elapsed)


def verify_sign_in(
    services: Verifying, email: str, code: str, device: str, source: str
) -> tuple[PlayerRecord, SessionRecord, str]:
    """The code mailed to `email` opens a new session of the player who owns the address."""
    label = check_device(device)
    address, key = _claim_signing_in(services, email, source, per_source=TRIES_PER_SOURCE, per_address=())
    store = services.emails
    pending = store.sign_in_code(key)
    if pending is None:
        raise InvalidInput(*_INVALID)
    if _dead(services, pending):
        raise InvalidInput(*_EXPIRED)
    if not hmac.compare_digest(code_hash(SIGN_IN, address, code), pending.code_hash):
        store.count_wrong_code(CodeKey("sign_in", key), pending.code_hash, max_attempts=MAX_ATTEMPTS)
        raise InvalidInput(*_INVALID)
    owner = store.owner_of(key)
    player = None if owner is None else services.players.get_player(owner)
    used = store.use_sign_in_code(key, pending.code_hash, now=services.now_epoch(), max_attempts=MAX_ATTEMPTS)
    if not used:
        raise InvalidInput(*_EXPIRED)
    if player is None or player.email != address:
        # The address is nobody's (now): the code was never mailed, or the address moved since.
        raise InvalidInput(*_INVALID)
    session, token = open_session(services, player, label)
    return player, session, token
