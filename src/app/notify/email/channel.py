"""The email channel: "your turn", reminders and nudges, game over and rematches, to the player's verified
address.

Delivery decides whether the player wants the mail (preferences, quiet hours); this channel decides
whether it may go: a verified address that never bounced or complained, a deployment that can sign an
unsubscribe link, at most one turn mail (your turn, reminder or nudge) per player per game per
TURN_MAIL_WINDOW, and each notification once (a stream or sweep retry finds its claim, by dedupe id).
Every outcome but "sent" is counted by name (`Email_<outcome>`); the outbox's email queue sends through
`EmailChannel.send` (app.notify.outbox_delivery), retrying a failed or unknown one.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from enum import StrEnum

from app.core.telemetry import count, logger
from app.notify.email import unsubscribe
from app.notify.email.mail import (
    DEDUPE_HEADER,
    MailNotConfigured,
    MailOutcomeUnknown,
    MailRefused,
    MailUnavailable,
    Suppressed,
)
from app.notify.email.turn_mail import turn_mail
from app.notify.messages import Kind, Notification
from app.notify.ports import Emailing
from dixit.lean_dataclass import dataclass

TURN_MAIL_WINDOW = timedelta(hours=12)
TURN_KINDS = frozenset({Kind.YOUR_TURN, Kind.REMINDER})
EMAILED_KINDS = TURN_KINDS | {Kind.GAME_OVER, Kind.REMATCH}
# A game-over (or rematch) mail is claimed for as long as a replay of its stream record could come
# (a day is plenty).
_ONCE_WINDOW = timedelta(days=2)


class EmailOutcome(StrEnum):
    SENT = "sent"
    NOT_EMAILED = "not_emailed"  # a kind that never goes by email (a timeout)
    NOT_CONFIGURED = "not_configured"
    NO_ADDRESS = "no_address"
    SUPPRESSED = "suppressed"
    LIMITED = "limited"  # the game's turn mail already went in the window, or this one was sent
    STALE = "stale"  # the move it asks for is no longer owed
    FAILED = "failed"  # worth a retry (the service was busy or unreachable)
    REFUSED = "refused"  # the service will never send this one
    UNKNOWN = "unknown"  # the mail service's answer was lost: the mail may have gone


def _slot(notification: Notification) -> tuple[str, timedelta]:
    if notification.kind in TURN_KINDS:
        return f"TURN#{notification.game_id}", TURN_MAIL_WINDOW
    return f"ONCE#{notification.dedupe_id}", _ONCE_WINDOW


@dataclass(slots=True)
class EmailChannel:
    services: Emailing

    @property
    def configured(self) -> bool:
        settings = self.services.settings
        return (
            self.services.mailer.configured and bool(settings.web_base_url) and unsubscribe.can_link(settings)
        )

    def reaches(self, notification: Notification) -> bool:
        """A kind mails go out for, a deployment that mails, and an address that takes them."""
        services = self.services
        if notification.kind not in EMAILED_KINDS or not self.configured:
            return False
        player = services.players.get_player(notification.player_id)
        if player is None or not player.email:
            return False
        return not services.mail_ledger.address_suppressed(player.email)

    def send(
        self, notification: Notification, *, time_zone: str = "UTC", send_id: str | None = None
    ) -> EmailOutcome:
        """Send the mail (`send_id`: the outbox's dedupe id, carried in the DEDUPE_HEADER)."""
        outcome = self._send(notification, time_zone, send_id or notification.dedupe_id)
        if outcome is not EmailOutcome.SENT:
            count(f"Email_{outcome.value}")
        return outcome

    def _send(self, notification: Notification, time_zone: str, send_id: str) -> EmailOutcome:
        services = self.services
        if notification.kind not in EMAILED_KINDS:
            return EmailOutcome.NOT_EMAILED
        if not self.configured:
            return EmailOutcome.NOT_CONFIGURED
        player = services.players.get_player(notification.player_id)
        if player is None or not player.email:
            return EmailOutcome.NO_ADDRESS
        if services.mail_ledger.address_suppressed(player.email):
            return EmailOutcome.SUPPRESSED
        record = services.games.load_game(notification.game_id)
        if record is None:
            return EmailOutcome.STALE
        state = record.state
        preferences = services.notifications.preferences(player.player_id)
        token = unsubscribe.sign_for(
            services.settings.unsubscribe_secret,
            player,
            unsubscribe.Scope.EMAIL,
            preferences,
            services.now_epoch(),
        )
        link = unsubscribe.link(services.settings, token)
        nudger = None if notification.nudged_by is None else state.player(notification.nudged_by)
        mail = turn_mail(
            notification,
            state,
            to=player.email,
            time_zone=time_zone,
            web_base_url=services.settings.web_base_url,
            unsubscribe_url=link,
            image_url=services.images.url_for,
            nudger_name=None if nudger is None else nudger.name,
        )
        if mail is None:
            return EmailOutcome.STALE
        mail = replace(mail, headers=(*mail.headers, (DEDUPE_HEADER, send_id)))
        slot, window = _slot(notification)
        ledger, dedupe_id = services.mail_ledger, notification.dedupe_id
        if not ledger.claim_mail(
            player.player_id,
            slot,
            dedupe_id,
            now=services.now_epoch(),
            window_seconds=int(window.total_seconds()),
        ):
            return EmailOutcome.LIMITED
        try:
            services.mailer.send(mail)
        except MailOutcomeUnknown:
            # Kept claimed: the queue's retry comes once the outbox claim expires (at most one repeat).
            logger.warning("a notification mail's answer was lost", extra={"dedupe_id": dedupe_id})
            return EmailOutcome.UNKNOWN
        except Suppressed:
            ledger.release_mail(player.player_id, slot, dedupe_id)
            ledger.suppress_address(player.email, reason="SES_SUPPRESSION_LIST", at=services.now_iso())
            return EmailOutcome.SUPPRESSED
        except (MailRefused, MailUnavailable, MailNotConfigured) as error:
            # Given back, so the queue's retry, or the next notification, may send it.
            ledger.release_mail(player.player_id, slot, dedupe_id)
            logger.warning(
                "a notification mail was not sent",
                extra={"dedupe_id": dedupe_id, "code": getattr(error, "code", "")},
            )
            return EmailOutcome.REFUSED if isinstance(error, MailRefused) else EmailOutcome.FAILED
        ledger.mark_mail_sent(player.player_id, slot, dedupe_id)
        count(f"Emailed_{notification.kind.value}")
        return EmailOutcome.SENT
