"""Deleting an account never freezes a game (#37): under `wait`, a game whose storyteller and host both
deleted their accounts moves on through the sweep, and the host's role passes on."""

from __future__ import annotations

from app.core.records import Visibility
from app.flows.erase_account import erase_account
from app.flows.sweep import sweep
from app.games import play as games
from app.notify.delivery import Outcome
from app.notify.messages import Notification
from app.players import accounts
from app.services import Services
from dixit.engine import DELETED_PLAYER_NAME
from dixit.moves import Join, Start
from dixit.state import Phase
from tests.support.clock import Clock


class Told:
    def deliver(self, notification: Notification) -> Outcome:
        return Outcome.SENT

    def send_reminder(self, notification: Notification) -> Outcome:
        return Outcome.SENT


def sweep_at(services: Services, clock: Clock, **later: float) -> None:
    clock.advance(**later)
    sweep(services, Told(), services.now_epoch(), remaining_ms=lambda: 60_000)  # type: ignore[arg-type]


def test_under_wait_a_game_whose_storyteller_and_host_deleted_their_accounts_moves_on(
    services: Services, clock: Clock
) -> None:
    seats = [accounts.register(services, f"Player {n}") for n in range(4)]
    (host, _), *guests = seats
    record = games.create_game(
        services, host, rules="classic", decks=None, max_players=None, target_score=None,
        visibility=Visibility.PRIVATE, move_timeout_hours=4, timeout_policy="wait",
    ).record  # fmt: skip
    assert record is not None
    for guest, _ in guests:
        games.play(
            services, guest, record.game_id, Join(guest.player_id, guest.name), invite_code=record.invite_code
        )
    games.play(services, host, record.game_id, Start(host.player_id))
    game_id = record.game_id
    teller = games.load_game(services, game_id).state.awaited()[0]
    # Past the deadline: under `wait` only a reminder, and the game waits on its storyteller.
    sweep_at(services, clock, hours=5)
    assert games.load_game(services, game_id).state.awaited() == (teller,)

    tokens = {player.player_id: token for player, token in seats}
    for gone in dict.fromkeys([teller, host.player_id]):
        erase_account(services, accounts.authenticate(services, f"Bearer {tokens[gone]}"))
    state = games.load_game(services, game_id).state
    assert state.player(teller).name == DELETED_PLAYER_NAME  # type: ignore[union-attr]
    assert state.host_id not in (teller, host.player_id)

    sweep_at(services, clock, minutes=10)
    state = games.load_game(services, game_id).state
    assert state.phase is Phase.STORYTELLING
    assert state.round is not None
    assert state.round.storyteller_id != teller
    # And on: whoever is storyteller now, a deleted one passes again at the deadline, a living one is
    # waited for (`wait`).
    sweep_at(services, clock, hours=5)
    state = games.load_game(services, game_id).state
    assert state.round is not None
    assert state.round.storyteller_id not in (teller, host.player_id)
