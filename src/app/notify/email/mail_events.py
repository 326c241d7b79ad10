"""What SES tells us about mail it sent: a permanent bounce or a complaint stops mail to that address.

SES publishes the configuration set's bounce and complaint events (template.yaml: to EventBridge); the
handler (handlers.mail_events) hands each event's `detail` here. A transient bounce (a full mailbox, an
auto-reply) stops nothing: SES retried it already, and the next mail may well arrive.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.core.telemetry import count, logger
from app.notify.ports import Suppressing


def addresses_to_suppress(detail: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(address, reason) for each recipient the event says must get nothing more."""
    kind = str(detail.get("eventType") or detail.get("notificationType") or "")
    if kind == "Bounce":
        bounce = detail.get("bounce") or {}
        if bounce.get("bounceType") != "Permanent":
            return []
        recipients, reason = bounce.get("bouncedRecipients") or [], "BOUNCE"
    elif kind == "Complaint":
        recipients, reason = (detail.get("complaint") or {}).get("complainedRecipients") or [], "COMPLAINT"
    else:
        return []
    return [
        (str(r["emailAddress"]), reason)
        for r in recipients
        if isinstance(r, Mapping) and isinstance(r.get("emailAddress"), str) and "@" in r["emailAddress"]
    ]


def record_mail_event(services: Suppressing, detail: Mapping[str, Any]) -> int:
    """Suppress what the event names; how many addresses. Idempotent: a replay suppresses them again."""
    found = addresses_to_suppress(detail)
    for address, reason in found:
        services.mail_ledger.suppress_address(address, reason=reason, at=services.now_iso())
        count(f"MailSuppressed_{reason.lower()}")
    if found:
        message_id = (detail.get("mail") or {}).get("messageId")
        logger.info("addresses suppressed", extra={"count": len(found), "message_id": message_id})
    return len(found)
