"""A game never leaves the due index while it owes a move, whatever the clocks of moves and sweeps."""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.errors import AppError
from app.core.records import GameRecord, Visibility
from app.flows.sweep import sweep
from app.games import play as games
from app.notify.delivery import Outcome
from app.notify.messages import Notification
from app.players import accounts as players
from app.services import Services
from dixit.bots import RandomBot
from dixit.errors import DixitError
from dixit.moves import Join, Start
from dixit.state import Phase
from dixit.views import view_for
from tests.support.clock import Clock
from tests.support.services import memory_services

HOUR = 3600
TIMEOUT = 4 * HOUR
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


class Told:
    def deliver(self, notification: Notification) -> Outcome:
        return Outcome.SENT

    def send_reminder(self, notification: Notification) -> Outcome:
        return Outcome.SENT


def started(services: Services, policy: str, seats: int) -> tuple[GameRecord, dict[str, object]]:
    accounts = [players.register(services, f"Player {n}")[0] for n in range(seats)]
    host, *guests = accounts
    record = games.create_game(
        services, host, rules="classic", decks=None, max_players=None, target_score=10,
        visibility=Visibility.PRIVATE, move_timeout_hours=TIMEOUT // HOUR, timeout_policy=policy,
    ).record  # fmt: skip
    assert record is not None
    for guest in guests:
        games.play(
            services, guest, record.game_id, Join(guest.player_id, guest.name), invite_code=record.invite_code
        )
    games.play(services, host, record.game_id, Start(host.player_id))
    return games.load_game(services, record.game_id), {a.player_id: a for a in accounts}


# A step: a player's move or a sweep, each at its own clock, `offset` seconds after the start. The
# clocks need not agree: a move may carry a time well before a sweep that already ran.
steps = st.lists(
    st.tuples(st.sampled_from(["move", "sweep"]), st.integers(0, 12 * TIMEOUT)), min_size=1, max_size=40
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    policy=st.sampled_from(["skip", "autoplay"]), seats=st.integers(3, 5), plan=steps, seed=st.integers(0, 99)
)
def test_no_game_that_owes_a_move_is_ever_left_without_a_due_entry(
    policy: str, seats: int, plan: list[tuple[str, int]], seed: int
) -> None:
    clock = Clock(T0)
    services = memory_services(clock=clock)
    record, accounts = started(services, policy, seats)
    bots = {pid: RandomBot(pid, seed + i) for i, pid in enumerate(accounts)}
    for kind, offset in plan:
        clock.now = T0 + timedelta(seconds=offset)
        now = services.now_epoch()
        if kind == "sweep":
            sweep(services, Told(), now, remaining_ms=lambda: 60_000)  # type: ignore[arg-type]
        else:
            state = games.load_game(services, record.game_id).state
            for pid in state.awaited():
                move = bots[pid].choose(view_for(state, pid))
                if move is not None:
                    with contextlib.suppress(AppError, DixitError):
                        games.play(services, accounts[pid], record.game_id, move)  # type: ignore[arg-type]
                    break
        current = games.load_game(services, record.game_id)
        if current.state.phase is not Phase.FINISHED:
            assert current.due_at is not None, f"{current.state.phase} owes {current.state.awaited()}"
    # And the entry is a working one: sweeps alone, later and later, finish the game.
    later = T0 + timedelta(seconds=12 * TIMEOUT)
    for _ in range(2000):
        current = games.load_game(services, record.game_id)
        if current.state.phase is Phase.FINISHED:
            break
        assert current.due_at is not None
        later = max(later, datetime.fromtimestamp(current.due_at, UTC)) + timedelta(minutes=5)
        clock.now = later
        sweep(services, Told(), services.now_epoch(), remaining_ms=lambda: 60_000)  # type: ignore[arg-type]
    assert games.load_game(services, record.game_id).state.phase is Phase.FINISHED
