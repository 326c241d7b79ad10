"""What notification delivery needs from storage: preferences, devices, mutes and the rate limits."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from app.notify.channels import Platform
from app.notify.messages import Notification
from app.notify.preferences import NotificationPreferences

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
