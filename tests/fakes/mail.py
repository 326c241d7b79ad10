"""A Mailer that keeps what it is asked to send: app.notify.email.mail.Mailer's contract, in memory."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.notify.email.mail import Mail, MailNotConfigured, Suppressed


@dataclass
class RecordingMailer:
    """Records each mail in `sent`; `configured=False` plays a deployment without email, and an address
    in `suppressed` one that bounced (both raise as the SES adapter does, and nothing is recorded)."""

    configured: bool = True
    suppressed: set[str] = field(default_factory=set)
    sent: list[Mail] = field(default_factory=list)

    def send(self, mail: Mail) -> None:
        if not self.configured:
            raise MailNotConfigured()
        if mail.to.lower() in {address.lower() for address in self.suppressed}:
            raise Suppressed()
        self.sent.append(mail)

    def to(self, address: str) -> list[Mail]:
        """What was sent to `address`, oldest first."""
        return [mail for mail in self.sent if mail.to == address]
