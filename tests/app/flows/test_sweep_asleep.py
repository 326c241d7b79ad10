"""Nobody timed out asleep: a sweep that comes late, inside the owing player's quiet hours, leaves their
move owed, stores the moment they wake, and times them out then (dixit.asleep)."""

from __future__ import annotations

from datetime import UTC, datetime

from app.games import play as games
from app.notify import my_preferences
from app.services import Services
from dixit.deadlines import DueKind, next_due

from .test_sweep_path import HOUR, Told, started, sweep_at

# The services' clock is 12:00 UTC and the storyteller has an hour: the deadline is 13:00 UTC. Asleep
# from 13:20, past the sweep's grace (15 minutes), so the deadline itself stays where it is.
SIESTA = {"time_zone": "UTC", "quiet_hours": {"start": "13:20", "end": "20:00"}}
WAKES = int(datetime(2026, 3, 1, 20, 0, tzinfo=UTC).timestamp())


def test_a_late_sweep_inside_the_owing_players_quiet_hours_waits_for_them_to_wake(
    services: Services,
) -> None:
    record = started(services)
    teller = services.players.get_player(record.state.awaited()[0])
    assert teller is not None
    my_preferences.change(services, teller, SIESTA)
    deadline = games.load_game(services, record.game_id).state.deadline()
    assert deadline == services.now_epoch() + HOUR  # not moved: awake at 13:00 and through the grace
    told = Told()

    # The sweep runs late, at 13:30: the storyteller has slept since 13:20.
    report = sweep_at(services, told, HOUR + 30 * 60)

    after = games.load_game(services, record.game_id)
    assert (report.timeouts_applied, report.timeouts_held_asleep) == (0, 1)
    assert after.state.awaited() == (teller.player_id,)  # still theirs to make
    # Looked at again by the moment they wake (sooner, within half a timeout: the due index's bound).
    assert after.due_at is not None
    assert after.due_at <= WAKES
    upcoming = next_due(after.state, after=services.now_epoch() + HOUR + 30 * 60)
    assert upcoming is not None
    assert (upcoming.kind, upcoming.at) == (DueKind.TIMEOUT, WAKES)
    # No timeout told: only the last call this late sweep had not sent yet (delivery holds it till 20:00).
    assert [n.kind.value for n in told.sent] == ["reminder"]
    # A sweep during the night changes nothing; the first one after they wake times them out.
    assert sweep_at(services, told, 5 * HOUR).timeouts_applied == 0
    woken = sweep(services, told, WAKES)
    assert woken.timeouts_applied == 1
    assert [n.kind.value for n in told.sent] == ["reminder", "timeout"]
    assert games.load_game(services, record.game_id).state.round.storyteller_id != teller.player_id  # type: ignore[union-attr]


def sweep(services: Services, told: Told, now: int) -> object:
    return sweep_at(services, told, now - services.now_epoch())
