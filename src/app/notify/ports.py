"""What notification delivery needs from storage: preferences, devices, mutes and the rate limits; and the
few ports each notify use case reads (the composition's Services has them all, and so fits each).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from app.core.clock import Clock
from app.games.ports import Games, Inbox, Moving
from app.notify.devices.channels import Platform
from app.notify.messages import Notification
from app.notify.preferences import NotificationPreferences
from dixit.lean_dataclass import dataclass

if TYPE_CHECKING:
    from app.core.settings import AppSettings
    from app.decks.card_images import CardImages
    from app.notify.devices.channels import PushChannel
    from app.notify.email.mail import Mailer
    from app.notify.email.ports import DigestIndex, MailLedger
    from app.notify.outbox_ports import NotificationQueue, SendLedger
    from app.notify.web_push.ports import WebPushSender, WebPushStore
    from app.players.ports import PlayerStore

# The older name: every reader of a player's mutes reads the whole preferences now.
Preferences = NotificationPreferences


@dataclass(frozen=True, slots=True)
class Device:
    device_id: str
    platform: Platform
    endpoint_arn: str
    registered_at: str


@dataclass(frozen=True, slots=True)
class Held:
    """A notification held through its player's quiet hours, until `release_at` (epoch seconds)."""

    notification: Notification
    release_at: int


class NotificationStore(Protocol):
    """Devices, mutes and the delivery rate limits."""

    def preferences(self, player_id: str) -> NotificationPreferences: ...

    def save_preferences(self, player_id: str, preferences: NotificationPreferences) -> None:
        """Store everything but the per-game mutes (`set_game_muted` owns those, one game at a time)."""
        ...

    def set_muted(self, player_id: str, muted: bool) -> None: ...

    def set_game_muted(self, player_id: str, game_id: str, muted: bool) -> None: ...

    def claim_reminder(self, player_id: str, *, now: int, window_seconds: int) -> bool:
        """Take the player's reminder slot unless they had one in the last `window_seconds`."""
        ...

    def claim_game_nudge(self, game_id: str, *, now: int, window_seconds: int) -> int | None:
        """Take the game's hand-nudge slot; None when taken, else the seconds until it frees up."""
        ...

    def devices(self, player_id: str) -> list[Device]: ...

    def get_device(self, player_id: str, device_id: str) -> Device | None: ...

    def put_device(self, player_id: str, device: Device) -> None: ...

    def delete_device(self, player_id: str, device_id: str, *, endpoint_arn: str | None = None) -> bool:
        """Remove a device; with `endpoint_arn`, only while it still points there (not re-registered)."""
        ...

    # Held through quiet hours: sharded by player (app.notify.holding.shard_of), ordered by release time.

    def hold(self, notification: Notification, *, release_at: int) -> None:
        """Keep `notification` until `release_at`; holding the same one again for the same time is a no-op."""
        ...

    def held_page(self, shard: str, now: int, *, limit: int, start: Any = None) -> tuple[list[Held], Any]:
        """One page of the shard's held notifications due by `now`, and where the next page starts."""
        ...

    def take_held(self, held: Held) -> bool:
        """Remove `held`; True for the one caller that removed it (the one that may send it)."""
        ...


class Notifications(Protocol):
    """A player's preferences, devices and held notifications."""

    notifications: NotificationStore


class WallClock(Protocol):
    # A property: a callable attribute would read as a method, which a dataclass field is not.
    @property
    def clock(self) -> Callable[[], datetime]: ...


class Settled(Protocol):
    settings: AppSettings


class DigestFiling(WallClock, Protocol):
    """The digest index, refiled by the hour a player's digest is due (app.notify.email.digest)."""

    digests: DigestIndex


class Suppressing(Clock, Protocol):
    """The mail ledger: the addresses the mail service refuses, and each channel's send claims."""

    mail_ledger: MailLedger


class Emailing(Suppressing, Games, Notifications, Settled, Protocol):
    """A notification's mail (app.notify.email.channel): to the player's address, with the game's cards."""

    players: PlayerStore
    mailer: Mailer
    images: CardImages


class WebPushing(WallClock, Settled, Protocol):
    """The web push channel and its subscriptions (app.notify.web_push.browsers)."""

    web_push_subscriptions: WebPushStore
    web_push: WebPushSender


class Delivering(Emailing, WebPushing, Protocol):
    """Every channel a notification may go to."""

    push: PushChannel


class Queueing(Delivering, Protocol):
    """Deciding where a notification goes (and whether it reaches the player there) and queuing it
    (app.notify.delivery.Delivery.of)."""

    notification_queue: NotificationQueue


class OutboxSending(Delivering, Protocol):
    """Sending the outbox's messages, each once (app.notify.outbox_delivery)."""

    notification_queue: NotificationQueue
    send_ledger: SendLedger


class Releasing(Games, Notifications, Protocol):
    """Held notifications, released or dropped when their game or player is gone (app.notify.holding)."""

    players: PlayerStore


class UnreadTalk(Protocol):
    """What the digest reads of table talk to count what a player has not read (kept by app.talk)."""

    def read_marks(self, player_id: str) -> dict[str, str]: ...

    def authors_after(self, game_id: str, after: str, *, limit: int) -> list[str]: ...

    def muted_players(self, player_id: str) -> list[str]: ...


class TalkReading(Protocol):
    @property
    def talk(self) -> UnreadTalk: ...


class Digesting(DigestFiling, Suppressing, Inbox, Notifications, Settled, TalkReading, Protocol):
    """The daily digest: due players, their preferences, their games, their mail (app.notify.email.digest)."""

    players: PlayerStore
    mailer: Mailer


class UnsubscribeChecking(Clock, Notifications, Settled, Protocol):
    """An unsubscribe link checked: the settings' secret, its age, the player's address and preferences."""

    players: PlayerStore


class Unsubscribing(UnsubscribeChecking, Protocol):
    """An unsubscribe link followed: checked, then the player's preferences and digest entry changed."""

    digests: DigestIndex


class Preferring(DigestFiling, Notifications, Moving, Inbox, Protocol):
    """Changing one's preferences: the digest index, and the quiet hours of each seat in each game."""
