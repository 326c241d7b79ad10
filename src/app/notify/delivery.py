"""Delivery use cases: who gets a notification and where, devices, mutes and the rate limits.

Every notification goes to the topic (operators fan out by filter policy) and to each channel the
player's preferences want for its kind, unless the player muted it (or, for a rematch, the finished
game it rematches). Nothing is sent here: each owed send becomes a message on its channel's queue (the
outbox, `app.notify.outbox`), which the queue's function sends, retried, once per dedupe id
(`app.notify.outbox_delivery`). So the stream consumer, the sweep and the nudge route never wait on a
push service or a mail server. Inside the player's quiet hours nothing is queued: the notification is
held (`NotificationStore.hold`) until they end, and the sweep releases it then (`app.notify.holding`),
dropping a reminder gone stale meanwhile. Delivery sees ports only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import field
from datetime import datetime, timedelta
from enum import StrEnum

from app.core.clock import utc_now
from app.core.errors import (
    Conflict,
    Forbidden,
    InvalidInput,
    NotConfigured,
    NotFound,
    RateLimited,
    StoreUnavailable,
)
from app.core.records import PlayerRecord
from app.core.telemetry import count, logger
from app.notify.devices.channels import InvalidPushToken, Platform, PushChannel
from app.notify.email.channel import EmailChannel
from app.notify.messages import Kind, Notification, nudge
from app.notify.outbox import by_channel, messages_for, owed_channels
from app.notify.outbox_ports import NotificationQueue
from app.notify.ports import Device, NotificationStore, Queueing
from app.notify.preferences import Channel, NotificationPreferences
from app.notify.web_push.ports import WebPushStore
from dixit.lean_dataclass import dataclass
from dixit.quiet_hours import is_quiet, quiet_end
from dixit.state import GameState
from dixit.views import waiting_for

# A player hears at most one scheduled reminder per window, across all their games.
REMINDER_WINDOW = timedelta(hours=12)
# A game can be nudged by hand at most once per window, whoever asks.
NUDGE_WINDOW = timedelta(hours=1)
MAX_DEVICES = 10


class Outcome(StrEnum):
    SENT = "sent"  # queued on every owed channel (the queue's function sends it)
    MUTED = "muted"
    LIMITED = "limited"
    HELD = "held"  # inside the player's quiet hours: stored, sent when they end


class NotQueued(StoreUnavailable):
    """A queue refused some of a notification's messages: the caller's retry enqueues them again (the
    ledger sends the ones that did go in only once). A 503 to an API client."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"notifications could not be queued just now ({detail}); try again shortly")


# A refused enqueue is tried again at once this many times in all: SQS refusals pass quickly, and the
# sweep cannot retry a notice whose write already committed.
ENQUEUE_ATTEMPTS = 3


# A player's browsers each get their own message; past this many, the oldest subscriptions alone.
MAX_PUSHED_BROWSERS = 10


@dataclass(slots=True)
class Delivery:
    store: NotificationStore
    notifier: PushChannel
    clock: Callable[[], datetime] = field(default=lambda: utc_now())
    queue: NotificationQueue | None = None
    subscriptions: WebPushStore | None = None
    # Whether the player's address takes this notification's mail (None: no email channel here).
    mail_reaches: Callable[[Notification], bool] | None = None

    @classmethod
    def of(cls, services: Queueing, clock: Callable[[], datetime] | None = None) -> Delivery:
        """Delivery through the request's adapters (on `clock`, the sweep's scheduled time, if given)."""
        return cls(
            services.notifications,
            services.push,
            clock or services.clock,
            services.notification_queue,
            services.web_push_subscriptions,
            EmailChannel(services).reaches,
        )

    def reaches(self, notification: Notification) -> bool:
        """Whether some channel the player wants for it has somewhere to take `notification`: an address,
        a device or a browser (never, when they muted it)."""
        preferences = self.store.preferences(notification.player_id)
        player_id, kind, game = notification.player_id, notification.kind, notification.game_id
        for channel in owed_channels(notification, preferences):
            if channel is Channel.DEVICE_PUSH:
                if preferences.wants(channel, kind, game) and self.store.devices(player_id):
                    return True
            elif channel is Channel.WEB_PUSH:
                mine = (
                    []
                    if self.subscriptions is None
                    else self.subscriptions.list_web_push_subscriptions(player_id)
                )
                if any(s.disabled_at is None for s in mine):
                    return True
            elif self.mail_reaches is not None and self.mail_reaches(notification):
                return True
        return False

    def now_epoch(self) -> int:
        return int(self.clock().timestamp())

    def deliver(self, notification: Notification) -> Outcome:
        """To the topic and the player's wanted channels, unless muted; held inside their quiet hours."""
        preferences = self.store.preferences(notification.player_id)
        if withheld := self._withheld(notification, preferences):
            return withheld
        return self._send(notification, preferences)

    def deliver_all(self, notifications: Iterable[Notification]) -> Counter[Outcome]:
        return Counter(self.deliver(n) for n in notifications)

    def send_reminder(self, notification: Notification) -> Outcome:
        """A scheduled reminder, at most one per player per REMINDER_WINDOW across all games.

        The sweep calls this after its write commits. A muted player's slot is left untouched, and so
        is a sleeping one's: the slot is taken when the held reminder is released.
        """
        if notification.kind is not Kind.REMINDER:
            raise ValueError(f"send_reminder sends reminders, not {notification.kind}")
        preferences = self.store.preferences(notification.player_id)
        if withheld := self._withheld(notification, preferences):
            return withheld
        if not self.store.claim_reminder(
            notification.player_id,
            now=self.now_epoch(),
            window_seconds=int(REMINDER_WINDOW.total_seconds()),
        ):
            count("RemindersLimited")
            logger.info("reminder held back by the limit", extra={"dedupe_id": notification.dedupe_id})
            return Outcome.LIMITED
        return self._send(notification, preferences)

    def redeliver(self, notification: Notification) -> Outcome:
        """A held notification, once its quiet hours ended: through the path it first came by."""
        if notification.kind is Kind.REMINDER and notification.nudged_by is None:
            return self.send_reminder(notification)
        return self.deliver(notification)

    def _withheld(self, notification: Notification, preferences: NotificationPreferences) -> Outcome | None:
        """MUTED when the player muted a game it is about, HELD (stored) inside their quiet hours; None
        when it may go out now."""
        if any(preferences.mutes(game_id) for game_id in notification.about):
            count("NotificationsMuted")
            return Outcome.MUTED
        if self._held(notification, preferences):
            return Outcome.HELD
        return None

    def _held(self, notification: Notification, preferences: NotificationPreferences) -> bool:
        quiet = preferences.seat_quiet
        now = self.now_epoch()
        if quiet is None or not is_quiet(quiet, now):
            return False
        self.store.hold(notification, release_at=quiet_end(quiet, now))
        count("NotificationsHeld")
        logger.info("held through quiet hours", extra={"dedupe_id": notification.dedupe_id})
        return True

    def _send(self, notification: Notification, preferences: NotificationPreferences) -> Outcome:
        """Queue the notification on each owed channel: one message per channel (per browser for web
        push), each with its dedupe id. Raises NotQueued when a queue refused some."""
        if self.queue is None:
            raise NotQueued("this delivery has no notification queue")
        browsers: list[str] = []
        if Channel.WEB_PUSH in owed_channels(notification, preferences) and self.subscriptions is not None:
            mine = self.subscriptions.list_web_push_subscriptions(notification.player_id)
            browsers = [s.subscription_id for s in mine if s.disabled_at is None][:MAX_PUSHED_BROWSERS]
        messages = messages_for(
            notification,
            preferences,
            enqueued_at=self.clock().isoformat(timespec="milliseconds"),
            subscriptions=browsers,
        )
        refused = 0
        for channel, queued in by_channel(messages).items():
            if not self.queue.configured(channel):
                # Refused like any other: a held message stays held, a stream record is retried (and the
                # missing queue shows in the logs and the failure counts), never dropped silently.
                count(f"NotifyNotConfigured_{channel.value}")
            bodies = [m.to_json() for m in queued]
            for _ in range(ENQUEUE_ATTEMPTS):
                bodies = self.queue.enqueue(channel, bodies)
                if not bodies:
                    break
            refused += len(bodies)
            count(f"NotifyQueued_{channel.value}", len(queued) - len(bodies))
        if refused:
            raise NotQueued(f"{refused} of {len(messages)} messages of {notification.dedupe_id} were refused")
        count(f"Notified_{notification.kind.value}")
        return Outcome.SENT


# Devices


def register_device(
    delivery: Delivery, player: PlayerRecord, device_id: str, platform: Platform, push_token: str
) -> tuple[Device, bool]:
    """Create or refresh the device's platform endpoint; True when the device is new."""
    if not delivery.notifier.push_configured(platform):
        raise NotConfigured(
            "push_not_configured", f"this deployment has no {platform.value} push application"
        )
    existing = delivery.store.get_device(player.player_id, device_id)
    if existing is None and len(delivery.store.devices(player.player_id)) >= MAX_DEVICES:
        raise Conflict("too_many_devices", f"a player may register at most {MAX_DEVICES} devices")
    try:
        endpoint = delivery.notifier.create_endpoint(platform, push_token, player_id=player.player_id)
    except InvalidPushToken:
        raise InvalidInput("invalid_push_token", "the push service refused this push_token") from None
    endpoint_arn = endpoint.arn
    if endpoint.previous_owner is not None:
        # The app install changed hands: the other player's device must not receive this player's news.
        for theirs in delivery.store.devices(endpoint.previous_owner):
            if theirs.endpoint_arn == endpoint_arn:
                delivery.store.delete_device(
                    endpoint.previous_owner, theirs.device_id, endpoint_arn=endpoint_arn
                )
    if existing is not None and existing.endpoint_arn != endpoint_arn:
        delivery.notifier.delete_endpoint(existing.endpoint_arn)  # the old token's endpoint is orphaned
    registered_at = existing.registered_at if existing is not None else delivery.clock().isoformat()
    device = Device(device_id, platform, endpoint_arn, registered_at)
    delivery.store.put_device(player.player_id, device)
    return device, existing is None


def list_devices(delivery: Delivery, player: PlayerRecord) -> list[Device]:
    return delivery.store.devices(player.player_id)


def remove_device(delivery: Delivery, player: PlayerRecord, device_id: str) -> None:
    device = delivery.store.get_device(player.player_id, device_id)
    if device is None or not delivery.store.delete_device(player.player_id, device_id):
        raise NotFound("device_not_found", f"you have no device {device_id}")
    delivery.notifier.delete_endpoint(device.endpoint_arn)


# Mutes


def set_muted(delivery: Delivery, player: PlayerRecord, muted: bool) -> None:
    delivery.store.set_muted(player.player_id, muted)


def set_game_muted(delivery: Delivery, player: PlayerRecord, state: GameState, muted: bool) -> None:
    if state.player(player.player_id) is None:
        raise Forbidden("not_a_member", "only the game's players can mute it")
    delivery.store.set_game_muted(player.player_id, state.game_id, muted)


# Nudges by hand


@dataclass(frozen=True, slots=True)
class NudgeReport:
    nudged: tuple[str, ...]
    next_nudge_at: str
    # Those nudged who have no channel to hear it on: they see it only when they open the game.
    unreachable: tuple[str, ...] = ()


def nudge_game(delivery: Delivery, player: PlayerRecord, state: GameState) -> NudgeReport:
    """A member reminds the players the game waits on; once per game per NUDGE_WINDOW."""
    if state.player(player.player_id) is None:
        raise Forbidden("not_a_member", "only the game's players can nudge it")
    targets = tuple(pid for pid in waiting_for(state) if pid != player.player_id)
    if not targets:
        raise Conflict("nothing_to_nudge", "the game is not waiting on anyone but you")
    now = delivery.clock()
    window = int(NUDGE_WINDOW.total_seconds())
    retry_after = delivery.store.claim_game_nudge(
        state.game_id, now=int(now.timestamp()), window_seconds=window
    )
    if retry_after is not None:
        raise RateLimited(
            "nudge_too_soon",
            f"this game was nudged less than an hour ago; try again in {retry_after} s",
            retry_after=retry_after,
        )
    at = now.isoformat(timespec="seconds")
    unreachable = []
    for target in targets:
        notification = nudge(state, target, by=player.player_id, at=at)
        if not delivery.reaches(notification):
            unreachable.append(target)
        delivery.deliver(notification)
    count("HandNudges")
    return NudgeReport(targets, (now + NUDGE_WINDOW).isoformat(timespec="seconds"), tuple(unreachable))
