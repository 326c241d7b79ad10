"""What the notification outbox needs: a queue per channel (with its dead-letter queue) and a ledger of
sends by dedupe id.

`app.aws.sqs.SqsNotificationQueue` and `app.aws.dynamodb.send_ledger.DynamoSendLedger` are the adapters
`app.bootstrap` builds; tests hand in the doubles of tests/fakes.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Protocol

from app.notify.preferences import Channel


class NotificationQueue(Protocol):
    """One queue per channel: messages in, a message hidden for a while (the backoff), dead letters."""

    def configured(self, channel: Channel) -> bool:
        """Whether this deployment has a queue for `channel` (no queue: the channel sends nothing)."""
        ...

    def enqueue(self, channel: Channel, bodies: Sequence[str]) -> list[str]:
        """Enqueue every body on `channel`'s queue, in batches; returns the bodies the queue refused."""
        ...

    def retry_later(self, channel: Channel, receipt_handle: str, delay_seconds: int) -> None:
        """Hide a message for `delay_seconds`: the queue redelivers it then (the backoff)."""
        ...

    def dead_letter(self, channel: Channel, body: str, reason: str) -> bool:
        """Put `body` on the channel's dead-letter queue; False when it has none."""
        ...


class Claim(StrEnum):
    CLAIMED = "claimed"  # this caller may send now
    SENT = "sent"  # it went out already: never again
    BUSY = "busy"  # another attempt holds it, or one whose outcome is unknown: retry once the claim expires


class SendLedger(Protocol):
    """One entry per dedupe id (message and channel, and device or browser): was it sent, who is sending."""

    def claim_send(self, player_id: str, send_id: str, *, now: int, claim_seconds: int) -> Claim:
        """Take `send_id` for `claim_seconds` unless it was sent or another claim still holds it.

        One conditional write, so concurrent attempts cannot both win. A claim that was never settled (the
        sender crashed, or the provider's answer was lost) is taken again once it expires.
        """
        ...

    def mark_sent(self, player_id: str, send_id: str, *, now: int) -> None:
        """It went out: every later claim of `send_id` answers SENT."""
        ...

    def release_send(self, player_id: str, send_id: str) -> None:
        """The provider said no for sure: give the claim back, so the retry may send at once."""
        ...
