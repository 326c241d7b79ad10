"""The few ports each sign-in use case reads (the composition's Services has them all, and so fits each)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from app.core.clock import Clock
from app.players.ports import Opening, Players

if TYPE_CHECKING:
    from app.core.settings import AppSettings
    from app.notify.email.mail import Mailer
    from app.players.ports import EmailStore


class Codes(Clock, Protocol):
    """The codes and the limits on asking for them, kept with the players' addresses."""

    emails: EmailStore


class Mailing(Codes, Protocol):
    """A code, mailed with a link to the web client."""

    settings: AppSettings
    mailer: Mailer


class SigningIn(Mailing, Protocol):
    """Asking for a sign-in code, whose answer waits until its time floor has passed."""

    # A property: a callable attribute would read as a method, which a dataclass field is not.
    @property
    def pause(self) -> Callable[[float], None]: ...


class Verifying(Codes, Opening, Players, Protocol):
    """A sign-in code that opens a session of the player who owns the address."""
