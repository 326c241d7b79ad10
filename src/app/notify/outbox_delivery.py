"""Sending the outbox's messages: one message, one channel, each send at most once per dedupe id.

The queue's function (`handlers.notify_delivery`) hands each message here. Every send is claimed in the
ledger (`SendLedger`) under its dedupe id first: a message already sent is never sent again (a
redelivered message, a repeated enqueue), a send whose outcome is unknown (the provider's answer was
lost) keeps its claim until it expires and is retried then, and a send the provider surely refused
gives the claim back for the retry. A failed message is retried alone, through the queue, with backoff;
after `notify_retry_for_seconds` it is dead-lettered. A failure on one channel never re-sends another
channel's message: each channel has its own messages.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime, timedelta
from enum import StrEnum
from functools import partial

from app.core.telemetry import count, logger
from app.notify.email.channel import EmailChannel, EmailOutcome
from app.notify.headline import headline
from app.notify.messages import Notification
from app.notify.outbox import OutboxMessage, send_id, topic_send_id
from app.notify.outbox_ports import Claim
from app.notify.ports import Device, OutboxSending
from app.notify.preferences import Channel
from app.notify.web_push.browsers import WebPush
from app.webhooks.ports import MAX_VISIBILITY_SECONDS
from dixit.lean_dataclass import dataclass


class Sent(StrEnum):
    SENT = "sent"
    SKIPPED = "skipped"  # nothing to send, for good (no address, a gone browser, a stale turn)
    DEDUPLICATED = "deduplicated"  # the ledger says it went already
    FAILED = "failed"  # surely not sent: retried at once
    UNKNOWN = "unknown"  # maybe sent (a lost answer): retried once its claim expires
    BUSY = "busy"  # another attempt holds the claim


_RETRIED = frozenset({Sent.FAILED, Sent.UNKNOWN, Sent.BUSY})


@dataclass(frozen=True, slots=True)
class RetryLater:
    delay_seconds: int


@dataclass(frozen=True, slots=True)
class Finished:
    outcome: str


def send_once(services: OutboxSending, player_id: str, key: str, send: Callable[[], Sent]) -> Sent:
    """`send` under the ledger's claim of `key`: never again once sent, never two at a time."""
    ledger = services.send_ledger
    claim = ledger.claim_send(
        player_id, key, now=services.now_epoch(), claim_seconds=services.settings.notify_claim_seconds
    )
    if claim is Claim.SENT:
        return Sent.DEDUPLICATED
    if claim is Claim.BUSY:
        return Sent.BUSY
    try:
        result = send()
    except Exception:
        # An error we cannot read may have come after the provider took the message: held, not released.
        logger.exception("a notification send raised", extra={"send_id": key})
        result = Sent.UNKNOWN
    if result in (Sent.SENT, Sent.SKIPPED):
        ledger.mark_sent(player_id, key, now=services.now_epoch())
    elif result is Sent.FAILED:
        ledger.release_send(player_id, key)
    return result


def _email(services: OutboxSending, message: OutboxMessage) -> Sent:
    outcome = EmailChannel(services).send(
        message.notification, time_zone=message.time_zone, send_id=message.send_id
    )
    return {
        EmailOutcome.SENT: Sent.SENT,
        EmailOutcome.FAILED: Sent.FAILED,
        EmailOutcome.UNKNOWN: Sent.UNKNOWN,
    }.get(outcome, Sent.SKIPPED)


def _describer(services: OutboxSending) -> Callable[[Notification], str | None]:
    """What a push says about its game (app.notify.headline), the game read once per message."""
    said: dict[str, str | None] = {}

    def describe(notification: Notification) -> str | None:
        if notification.dedupe_id not in said:
            record = services.games.load_game(notification.game_id)
            titled = headline(notification, None if record is None else record.state)
            said[notification.dedupe_id] = None if titled is None else titled.body
        return said[notification.dedupe_id]

    return describe


def _web_push(services: OutboxSending, message: OutboxMessage) -> Sent:
    if message.subscription_id is None:
        return Sent.SKIPPED
    pusher = WebPush.of(services, _describer(services))
    return Sent(pusher.push_one(message.notification, message.subscription_id, message.send_id))


def _device_push(services: OutboxSending, message: OutboxMessage) -> Sent:
    """The topic, then each device of the player: each its own send, so a retry repeats none that went."""
    notification = message.notification
    player_id = notification.player_id

    def publish() -> Sent:
        return Sent.SENT if services.push.publish(notification) else Sent.SKIPPED

    results = [send_once(services, player_id, topic_send_id(notification), publish)]
    if message.to_devices:
        describe = _describer(services)
        for device in services.notifications.devices(player_id):
            key = send_id(notification, Channel.DEVICE_PUSH, device.device_id)
            to_device = partial(_to_device, services, message, device, describe)
            results.append(send_once(services, player_id, key, to_device))
    retried = [r for r in results if r in _RETRIED]
    if retried:
        return retried[0]
    return Sent.SENT if Sent.SENT in results else results[0]


def _to_device(
    services: OutboxSending,
    message: OutboxMessage,
    device: Device,
    describe: Callable[[Notification], str | None],
) -> Sent:
    notification = message.notification
    player_id = notification.player_id
    if services.push.push(device.endpoint_arn, device.platform, notification, describe(notification)):
        return Sent.SENT
    # The platform disabled the endpoint (app uninstalled, token expired): it is forgotten.
    logger.info("removing a disabled push endpoint", extra={"device_id": device.device_id})
    services.notifications.delete_device(player_id, device.device_id, endpoint_arn=device.endpoint_arn)
    services.push.delete_endpoint(device.endpoint_arn)
    count("DevicesRemoved")
    return Sent.SKIPPED


def _send(services: OutboxSending, message: OutboxMessage) -> Sent:
    player_id = message.notification.player_id
    if message.channel is Channel.EMAIL:
        return send_once(services, player_id, message.send_id, lambda: _email(services, message))
    if message.channel is Channel.WEB_PUSH:
        return send_once(services, player_id, message.send_id, lambda: _web_push(services, message))
    return _device_push(services, message)  # its sends are claimed one by one


def backoff_seconds(attempt: int, base: int, rng: random.Random | None = None) -> int:
    """Exponential backoff with jitter: somewhere in the upper half of base * 2^(attempt-1), capped."""
    ceiling = min(MAX_VISIBILITY_SECONDS, base * 2 ** min(attempt - 1, 30))
    return max(1, round((rng or random.Random()).uniform(ceiling / 2, ceiling)))


def deliver(
    services: OutboxSending, message: OutboxMessage, *, attempt: int, rng: random.Random | None = None
) -> RetryLater | Finished:
    """One attempt at `message` (its `attempt`-th receive); says whether the queue should retry it."""
    channel = message.channel.value
    result = _send(services, message)
    count(f"Notify{result.value.capitalize()}_{channel}")
    if result not in _RETRIED:
        return Finished(result.value)
    settings = services.settings
    delay = backoff_seconds(attempt, settings.notify_retry_base_seconds, rng)
    if result is not Sent.FAILED:
        delay = max(delay, settings.notify_claim_seconds)  # the claim must expire before a repeat
    now = services.clock()
    give_up_at = datetime.fromisoformat(message.enqueued_at) + timedelta(
        seconds=settings.notify_retry_for_seconds
    )
    if now + timedelta(seconds=delay) > give_up_at:
        body, reason = message.to_json(), f"gave up after {attempt} attempts: {result.value}"
        if services.notification_queue.dead_letter(message.channel, body, reason):
            count(f"NotifyDeadLettered_{channel}")
        logger.error("a notification was given up", extra={"send_id": message.send_id, "attempt": attempt})
        return Finished("dead_lettered")
    count(f"NotifyRetried_{channel}")
    return RetryLater(delay)
