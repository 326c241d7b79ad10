"""What notification delivery needs from storage: devices, mutes and the delivery rate limits."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from app.notify.channels import Platform


@dataclass(frozen=True, slots=True)
class Preferences:
    muted: bool = False
    muted_games: frozenset[str] = frozenset()

    def mutes(self, game_id: str) -> bool:
        return self.muted or game_id in self.muted_games


@dataclass(frozen=True, slots=True)
class Device:
    device_id: str
    platform: Platform
    endpoint_arn: str
    registered_at: str


class NotificationStore(Protocol):
    """Devices, mutes and the delivery rate limits."""

    def preferences(self, player_id: str) -> Preferences: ...

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
