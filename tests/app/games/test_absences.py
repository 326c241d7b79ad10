"""Autoplay through the sweep, vacations, extensions and offered seats, as use cases on the doubles."""

from __future__ import annotations

import pytest

from app.core.errors import Forbidden
from app.flows.sweep import sweep
from app.games import play as games
from app.notify.delivery import Outcome
from app.notify.messages import Notification
from app.players import accounts as players
from app.services import Services
from dixit.moves import Extend, GiveClue, Join, OfferSeat, RemovePlayer, Submit, Vacation
from dixit.state import Phase
from tests.support.clock import Clock

from .helpers import started

HOUR = 3600
DAY = 24 * HOUR


class Told:
    def deliver(self, notification: Notification) -> Outcome:
        return Outcome.SENT

    def send_reminder(self, notification: Notification) -> Outcome:
        return Outcome.SENT


def sweep_at(services: Services, clock: Clock, **later: float) -> None:
    clock.advance(**later)
    sweep(services, Told(), services.now_epoch(), remaining_ms=lambda: 60_000)  # type: ignore[arg-type]


def clued(services: Services) -> tuple[str, dict[str, object], str]:
    record, accounts = started(services, 4)
    by_id = {a.player_id: a for a in accounts}
    teller = record.state.awaited()[0]
    card = record.state.hands[teller][0]
    games.play(services, by_id[teller], record.game_id, GiveClue(teller, card, "a clue"))  # type: ignore[arg-type]
    return record.game_id, by_id, teller


def test_the_sweep_autoplays_a_silent_submitters_card_onto_the_table(
    services: Services, clock: Clock
) -> None:
    game_id, by_id, _teller = clued(services)
    state = games.load_game(services, game_id).state
    silent, *rest = state.awaited()
    for pid in rest:
        games.play(services, by_id[pid], game_id, Submit(pid, (state.hands[pid][0],)))  # type: ignore[arg-type]
    sweep_at(services, clock, hours=5)
    after = games.load_game(services, game_id)
    assert after.state.phase is Phase.VOTING
    view = games.view_of(after, silent, services.images)
    assert view["round"]["autoplayed"] == [silent]
    assert view["you"]["submitted"][0] in [c["card_id"] for c in view["round"]["table"]]


def test_a_vacation_pushes_the_deadline_out_and_the_sweep_waits_for_it(
    services: Services, clock: Clock
) -> None:
    game_id, by_id, _ = clued(services)
    state = games.load_game(services, game_id).state
    away, *rest = state.awaited()
    before = state.deadline_of(away)
    games.play(services, by_id[away], game_id, Vacation(away, 2))  # type: ignore[arg-type]
    for pid in rest:
        games.play(services, by_id[pid], game_id, Submit(pid, (state.hands[pid][0],)))  # type: ignore[arg-type]
    after = games.load_game(services, game_id)
    assert after.state.deadline_of(away) == before + 2 * DAY
    view = games.view_of(after, rest[0], services.images)
    assert view["round"]["waiting"][0]["player_id"] == away
    assert next(p for p in view["players"] if p["player_id"] == away)["vacation_until"] is not None
    sweep_at(services, clock, hours=5)
    assert games.load_game(services, game_id).state.phase is Phase.SUBMITTING  # still waiting
    sweep_at(services, clock, days=2)
    assert games.load_game(services, game_id).state.phase is Phase.VOTING  # then autoplayed


def test_an_extension_gives_a_day_more_to_the_player_everyone_waits_on(
    services: Services, clock: Clock
) -> None:
    game_id, by_id, teller = clued(services)
    late = games.load_game(services, game_id).state.awaited()[0]
    games.play(services, by_id[teller], game_id, Extend(teller, late))  # type: ignore[arg-type]
    view = games.view_of(games.load_game(services, game_id), teller, services.images)
    assert view["round"]["extended"] == [late]


def test_an_offered_seat_is_taken_through_the_invite_link_with_its_hand_and_score(
    services: Services, clock: Clock
) -> None:
    game_id, by_id, _ = clued(services)
    host_id = games.load_game(services, game_id).state.host_id
    state = games.load_game(services, game_id).state
    silent = next(p for p in state.awaited() if p != host_id)
    for pid in state.awaited():
        if pid != silent:
            games.play(services, by_id[pid], game_id, Submit(pid, (state.hands[pid][0],)))  # type: ignore[arg-type]
    sweep_at(services, clock, hours=5)
    games.play(services, by_id[host_id], game_id, OfferSeat(host_id, silent))  # type: ignore[arg-type]
    record = games.load_game(services, game_id)
    hand, score = record.state.hands[silent], record.state.players[record.state.seat_of(silent)].score
    newcomer = players.register(services, "Newcomer")[0]
    with pytest.raises(Forbidden):
        games.play(services, newcomer, game_id, Join(newcomer.player_id, newcomer.name))
    games.play(
        services, newcomer, game_id, Join(newcomer.player_id, newcomer.name), invite_code=record.invite_code
    )
    view = games.view_of(games.load_game(services, game_id), newcomer.player_id, services.images)
    assert [c["card_id"] for c in view["you"]["hand"]] == hand
    seat = next(p for p in view["players"] if p["player_id"] == newcomer.player_id)
    assert seat["score"] == score
    assert silent not in [p["player_id"] for p in view["players"]]
    assert [g.game_id for g in services.inbox.active_memberships(newcomer.player_id)] == [game_id]
    assert services.inbox.active_memberships(silent) == []


def test_a_removed_player_leaves_at_the_end_of_the_round_and_loses_the_membership(
    services: Services, clock: Clock
) -> None:
    record, accounts = started(services, 5)
    by_id = {a.player_id: a for a in accounts}
    game_id, host_id = record.game_id, record.state.host_id
    teller = record.state.awaited()[0]
    card = record.state.hands[teller][0]
    games.play(services, by_id[teller], game_id, GiveClue(teller, card, "a clue"))
    state = games.load_game(services, game_id).state
    silent = next(p for p in state.awaited() if p != host_id)
    for pid in state.awaited():
        if pid != silent:
            games.play(services, by_id[pid], game_id, Submit(pid, (state.hands[pid][0],)))
    sweep_at(services, clock, hours=5)  # the silent card is autoplayed
    games.play(services, by_id[host_id], game_id, RemovePlayer(host_id, silent))
    assert games.load_game(services, game_id).state.player(silent) is not None
    sweep_at(services, clock, hours=5)  # the votes time out: the round ends, the seat goes
    after = games.load_game(services, game_id)
    assert after.state.player(silent) is None
    assert len(after.state.players) == 4
    assert services.inbox.active_memberships(silent) == []
