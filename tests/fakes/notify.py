"""`NotificationStore` in memory: mutes, the two delivery rate limits and each player's devices."""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Any

from app.notify.holding import shard_of
from app.notify.messages import Notification
from app.notify.ports import Device, Held, Preferences


class MemoryNotificationStore:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._preferences: dict[str, Preferences] = {}
        self._last_reminder: dict[str, int] = {}  # player id -> epoch seconds
        self._last_nudge: dict[str, int] = {}  # game id -> epoch seconds
        self._devices: dict[str, dict[str, Device]] = {}  # player id -> device id -> device
        self._held: dict[tuple[int, str, str], Held] = {}  # (release_at, player, dedupe id) -> held

    def erase_player(self, player_id: str) -> int:
        """The player's `NOTIFY` item (mutes, reminder slot) and devices, as their partition holds them."""
        with self._lock:
            notify = self._preferences.pop(player_id, None) is not None
            notify = self._last_reminder.pop(player_id, None) is not None or notify
            return int(notify) + len(self._devices.pop(player_id, {}))

    def preferences(self, player_id: str) -> Preferences:
        return self._preferences.get(player_id, Preferences())

    def set_muted(self, player_id: str, muted: bool) -> None:
        with self._lock:
            current = self.preferences(player_id)
            self._preferences[player_id] = replace(current, muted=muted)

    def set_game_muted(self, player_id: str, game_id: str, muted: bool) -> None:
        with self._lock:
            current = self.preferences(player_id)
            games = current.muted_games | {game_id} if muted else current.muted_games - {game_id}
            self._preferences[player_id] = replace(current, muted_games=games)

    def save_preferences(self, player_id: str, preferences: Preferences) -> None:
        with self._lock:
            current = self.preferences(player_id)
            self._preferences[player_id] = replace(preferences, muted_games=current.muted_games)

    def claim_reminder(self, player_id: str, *, now: int, window_seconds: int) -> bool:
        with self._lock:
            last = self._last_reminder.get(player_id)
            if last is not None and last > now - window_seconds:
                return False
            self._last_reminder[player_id] = now
            return True

    def claim_game_nudge(self, game_id: str, *, now: int, window_seconds: int) -> int | None:
        with self._lock:
            last = self._last_nudge.get(game_id)
            if last is not None and last > now - window_seconds:
                return max(1, last + window_seconds - now)
            self._last_nudge[game_id] = now
            return None

    def devices(self, player_id: str) -> list[Device]:
        mine = self._devices.get(player_id, {})
        return [mine[device_id] for device_id in sorted(mine)]  # the table's sort-key order

    def get_device(self, player_id: str, device_id: str) -> Device | None:
        return self._devices.get(player_id, {}).get(device_id)

    def put_device(self, player_id: str, device: Device) -> None:
        with self._lock:
            self._devices.setdefault(player_id, {})[device.device_id] = device

    def delete_device(self, player_id: str, device_id: str, *, endpoint_arn: str | None = None) -> bool:
        with self._lock:
            found = self._devices.get(player_id, {}).get(device_id)
            if found is None or (endpoint_arn is not None and found.endpoint_arn != endpoint_arn):
                return False
            del self._devices[player_id][device_id]
            return True

    def hold(self, notification: Notification, *, release_at: int) -> None:
        with self._lock:
            key = (release_at, notification.player_id, notification.dedupe_id)
            self._held[key] = Held(notification, release_at)

    def held_page(self, shard: str, now: int, *, limit: int, start: Any = None) -> tuple[list[Held], Any]:
        due = sorted(k for k in self._held if k[0] <= now and shard_of(k[1]) == shard)
        if start is not None:
            due = [k for k in due if k > start]
        page = due[:limit]
        return [self._held[k] for k in page], page[-1] if len(due) > limit else None

    def take_held(self, held: Held) -> bool:
        with self._lock:
            key = (held.release_at, held.notification.player_id, held.notification.dedupe_id)
            return self._held.pop(key, None) is not None

    @property
    def held(self) -> list[Held]:
        """Everything held now, by release time (for tests)."""
        return [self._held[k] for k in sorted(self._held)]
