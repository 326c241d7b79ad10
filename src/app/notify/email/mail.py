"""Email: one message (`Mail`), the port that sends it (`Mailer`) and what sending can answer.

The port and its plain types only; `app.aws.ses.SesMailer` is the SES adapter `app.bootstrap` builds, and
`app.notify.email.templates` writes the messages. A mailer never sends to an address on the account's
suppression list (it bounced or its owner marked us as spam): it raises `Suppressed` instead.
"""

from __future__ import annotations

from typing import Protocol

from app.core.errors import InvalidInput, NotConfigured, StoreUnavailable
from dixit.lean_dataclass import dataclass


@dataclass(frozen=True, slots=True)
class Mail:
    """One message to one address, as plain text and as HTML (the same words in both)."""

    to: str
    subject: str
    text: str
    html: str
    # Extra header fields (name, value), e.g. RFC 8058's List-Unsubscribe and List-Unsubscribe-Post.
    headers: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        # Header fields are one line each: a line break in them is an injected header, never a mail.
        fields = (("to", self.to), ("subject", self.subject), *self.headers)
        for name, value in fields:
            if not value or "\r" in value or "\n" in value:
                raise ValueError(f"a mail's {name} must be one non-empty line")
        for name, _ in self.headers:
            if not name or not all(33 <= ord(c) <= 126 and c != ":" for c in name):
                raise ValueError(f"{name!r} is not a header field name")


class MailNotConfigured(NotConfigured):
    """This deployment sends no email (no sender identity was given: the EmailFrom parameter)."""

    def __init__(self) -> None:
        super().__init__("email_not_configured", "this deployment does not send email")


class Suppressed(InvalidInput):
    """The address is on the suppression list: mail to it bounced, or its owner reported us as spam."""

    def __init__(self) -> None:
        super().__init__(
            "email_suppressed",
            "mail to this address bounced or was reported as spam, so none is sent to it; "
            "use another address",
        )


class MailRefused(InvalidInput):
    """The mail service refused this message for good (an address it will not deliver to)."""

    def __init__(self, detail: str = "the mail service refused to send to this address") -> None:
        super().__init__("email_refused", detail)


class MailUnavailable(StoreUnavailable):
    """The mail service is throttling, failing or unreachable, or sending is paused: nothing was sent."""

    def __init__(self, detail: str = "email could not be sent just now; try again shortly") -> None:
        super().__init__(detail)
        self.code = "email_unavailable"


class MailOutcomeUnknown(MailUnavailable):
    """The request went out but no answer came back: the mail may or may not have been sent."""

    def __init__(self) -> None:
        super().__init__("the mail service did not answer; the mail may have been sent")


# The header every notification mail carries its dedupe id in (SES sets the Message-ID itself), so a
# mail sent twice after a lost answer can be told to be the same one.
DEDUPE_HEADER = "X-Dixit-Dedupe-Id"


class Mailer(Protocol):
    """Sends one `Mail` at a time, from this deployment's sender."""

    @property
    def configured(self) -> bool:
        """False when this deployment sends no email (`send` would raise `MailNotConfigured`)."""
        ...

    def send(self, mail: Mail) -> None:
        """Send `mail`, or raise: `MailNotConfigured`, `Suppressed` (nothing is sent to a suppressed
        address), `MailRefused` (never worth a retry) or `MailUnavailable` (worth one later)."""
        ...
