"""Request and response bodies of the email routes: attaching an address, signing in with it."""

from __future__ import annotations

from typing import Any

from app.core.examples import PLAYER_ID, SESSION_ID
from app.core.request_fields import name_field
from app.core.schema_base import Request, Schema, doc
from app.players.accounts import DEFAULT_DEVICE
from app.players.schemas import EMAIL
from app.signin.email import SIGN_IN_SECONDS

CODE = "482913"
# An address SES can send to and a person can type: the WHATWG form of it, with a dot in the domain.
EMAIL_PATTERN = (
    r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@"
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$"
)
MAX_EMAIL_LENGTH = 254


def email_field(meaning: str) -> Any:
    return doc(
        f"{meaning}; compared without regard to case, at most {MAX_EMAIL_LENGTH} characters",
        EMAIL,
        min_length=3,
        max_length=MAX_EMAIL_LENGTH,
        pattern=EMAIL_PATTERN,
        # Powertools logs a route's arguments at DEBUG, by their repr: an address never goes there.
        repr=False,
    )


def code_field(meaning: str) -> Any:
    return doc(meaning, CODE, min_length=6, max_length=6, pattern=r"^[0-9]{6}$", repr=False)


class AttachEmail(Request):
    email: str = email_field("The address to attach to you: a code is mailed there to confirm it")


class EmailAttaching(Schema):
    email: str = doc("Where the confirmation code went (normalized: in lower case)", EMAIL)
    expires_at: str = doc("Until when the code works (ISO-8601 UTC)", "2026-11-30T09:45:00Z")


class ConfirmEmail(Request):
    code: str = code_field("The six-digit code mailed to the address you attached")


class RequestSignIn(Request):
    email: str = email_field("The confirmed address of the player signing in")


class SignInSent(Schema):
    sent_to: str = doc("The address as you gave it (a code went there if it is a player's)", EMAIL)
    expires_in: int = doc("Seconds the code works for", SIGN_IN_SECONDS)


class VerifySignIn(Request):
    email: str = email_field("The address the code was mailed to")
    code: str = code_field("The six-digit code from the mail (or from its link)")
    device: str = name_field(
        f"A label for this device, shown in your sessions (default {DEFAULT_DEVICE!r})",
        "Ada's tablet",
        default=DEFAULT_DEVICE,
    )


class SignedIn(Schema):
    player_id: str = doc("Your player id", PLAYER_ID)
    name: str = doc("Your name as others see it", "Ada")
    session_id: str = doc("The new session, this device's", SESSION_ID)
    token: str = doc(
        "Bearer token `p_<player>.s_<session>.<secret>`; shown only in this response",
        f"{PLAYER_ID}.{SESSION_ID}.kq3…",
    )
