"""Quiet hours on moto: the sweep sends nothing to a sleeping player, holds it, and sends it when they
wake; a deadline that would fall in their night moves to the morning plus the waking window."""

from __future__ import annotations

from datetime import datetime

from ..client import Client
from ..helpers import started, storyteller, view
from ..sns_inbox import received
from .test_sweep import HOUR, T0, FakeClock, clock, inbox, kinds, sweep_at  # noqa: F401  (fixtures)

NIGHTS = {"time_zone": "UTC", "quiet_hours": {"start": "22:00", "end": "08:00"}}


def sleepers(clients: list[Client]) -> list[Client]:
    for client in clients:
        assert client.put("/players/me/notifications", NIGHTS).status == 200
    return clients


def test_a_reminder_due_at_night_waits_for_the_morning_and_goes_out_once(
    players: list[Client],
    inbox: str,  # noqa: F811
    clock: FakeClock,  # noqa: F811
) -> None:
    clients = sleepers(players[:3])
    game_id = started(clients, move_timeout_hours=26)  # at 09:00: half time is 22:00, the deadline 11:00
    teller = storyteller(clients, game_id).player_id

    night = sweep_at(T0 + 13 * HOUR + 5 * HOUR / 60)  # 22:05
    assert night["reminders_sent"] == 0
    assert night["reminders_held"] == 1
    assert received(inbox) == []
    assert sweep_at(T0 + 20 * HOUR)["held_released"] == 0  # 05:00: still asleep

    morning = sweep_at(T0 + 23 * HOUR + 5 * HOUR / 60)  # 08:05
    assert morning["held_released"] == 1
    assert kinds(received(inbox)) == [("reminder", teller)]
    assert sweep_at(T0 + 23 * HOUR + 10 * HOUR / 60)["held_released"] == 0
    assert received(inbox) == []


def test_a_deadline_at_three_in_the_morning_reads_eight_plus_the_waking_window_and_holds(
    players: list[Client],
    inbox: str,  # noqa: F811
    clock: FakeClock,  # noqa: F811
) -> None:
    clients = sleepers(players[:3])
    game_id = started(clients, move_timeout_hours=18)  # at 09:00: due at 03:00, a tenth is 1 h 48
    deadline = datetime.fromisoformat(view(clients[0], game_id)["round"]["deadline"])
    assert deadline == T0.replace(day=2, hour=9, minute=48)

    assert sweep_at(T0 + 18 * HOUR + HOUR / 12)["timeouts_applied"] == 0  # 03:05
    assert sweep_at(T0 + 24 * HOUR)["timeouts_applied"] == 0  # 09:00: the player has until 09:48
    assert sweep_at(T0 + 24 * HOUR + HOUR)["timeouts_applied"] == 1  # 10:00
