"""No seat freezes a game (#37): a deleted account's seat is moved on whatever the timeout policy, the
host's controls work on it at once, and a departed host's role passes to the longest-seated player."""

from __future__ import annotations

import random

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from dixit.bots import RandomBot
from dixit.deadlines import DueKind, due_now, schedule
from dixit.departures import longest_seated
from dixit.engine import forget_player
from dixit.errors import DixitError
from dixit.moves import Join, Move, OfferSeat, RemovePlayer, Timeout, Vacation
from dixit.state import EndReason, GameState, Phase
from dixit.views import view_for

from .helpers import HOST, NOW, act, apply, give_clue, seated_game, storyteller

POLICIES = ("autoplay", "skip", "wait")


def timed_out(state: GameState) -> GameState:
    """The Timeout the sweep applies at the first point it is told to time out (as app.sweep does)."""
    point = next(due for due in schedule(state) if due.kind is DueKind.TIMEOUT)
    assert due_now(state, point.at) is not None
    assert due_now(state, point.at).kind is DueKind.TIMEOUT  # type: ignore[union-attr]
    return act(state, Timeout(), now=point.at)


@pytest.mark.parametrize("policy", POLICIES)
def test_a_deleted_storyteller_is_moved_on_at_the_deadline_whatever_the_policy(policy: str) -> None:
    state = seated_game(4, policy=policy)
    teller = storyteller(state)
    gone = forget_player(state, teller)
    after = timed_out(gone)
    assert after.round is not None
    assert after.round.storyteller_id != teller
    assert after.version > gone.version


def test_under_wait_a_game_whose_storyteller_and_host_both_deleted_their_accounts_moves_on() -> None:
    """#37: the game waited 20 days on "Deleted player", and nobody could offer or remove the seat."""
    state = seated_game(4, seed=5, policy="wait")
    teller = storyteller(state)
    state = forget_player(state, teller)
    if teller != HOST:
        state = forget_player(state, HOST)
    assert state.host_id not in state.departed
    assert state.phase is Phase.STORYTELLING
    after = timed_out(state)
    assert after.round is not None
    assert after.round.storyteller_id not in state.departed
    # A living player's silence under `wait` is still only reminded of: their deadline times nothing out.
    living = after.round.storyteller_id
    assert all(d.kind is not DueKind.TIMEOUT for d in schedule(after)), living


def test_under_wait_a_deleted_seat_is_played_for_while_the_living_are_waited_for() -> None:
    state = give_clue(seated_game(4, seed=2, policy="wait"))
    silent = [p for p in state.player_ids if p != storyteller(state)]
    state = forget_player(state, silent[0])
    after = timed_out(state)
    assert after.round is not None
    assert silent[0] in after.round.submissions
    assert all(p not in after.round.submissions for p in silent[1:])
    assert set(after.awaited()) == set(silent[1:])


@pytest.mark.parametrize("policy", POLICIES)
def test_the_host_may_offer_or_remove_a_deleted_seat_at_once(policy: str) -> None:
    state = seated_game(5, policy=policy)
    gone = next(p for p in state.player_ids if p != HOST)
    state = forget_player(state, gone)
    offered = act(state, OfferSeat(HOST, gone))
    assert gone in offered.offered
    taken = act(offered, Join("newcomer", "Newcomer"))
    assert "newcomer" not in taken.departed
    assert gone not in taken.departed
    assert taken.newcomers == ["newcomer"]
    assert act(state, RemovePlayer(HOST, gone)).leaving == [gone]


def test_the_view_tells_a_deleted_seat_from_the_others_for_every_viewer() -> None:
    state = seated_game(4)
    gone = next(p for p in state.player_ids if p != HOST)
    state = forget_player(state, gone)
    for viewer in (HOST, gone, None):
        seats = {p.player_id: p.departed for p in view_for(state, viewer).players}
        assert seats == {pid: pid == gone for pid in state.player_ids}


def test_a_departed_hosts_role_passes_to_the_longest_seated_player() -> None:
    state = seated_game(5, policy="wait")
    # p2 takes an offered seat: seated later than everyone, whatever its place at the table.
    state = forget_player(state, "p1")
    state = act(act(state, OfferSeat(HOST, "p1")), Join("late", "Late"))
    assert state.player_ids[1] == "late"
    assert longest_seated(state) == HOST
    state = forget_player(state, HOST)
    assert state.host_id == "p2"
    state = forget_player(state, "p2")
    state = forget_player(state, "p3")
    assert state.host_id == "p4"
    state = forget_player(state, "p4")
    assert state.host_id == "late"


def test_a_game_everyone_deleted_their_account_from_is_over() -> None:
    state = seated_game(3, policy="wait")
    for player_id in list(state.player_ids):
        state = forget_player(state, player_id)
    assert state.phase is Phase.FINISHED
    assert state.end_reason is EndReason.EVERYONE_LEFT


def test_departed_and_newcomer_seats_survive_the_stored_form() -> None:
    state = forget_player(seated_game(5, policy="wait"), "p1")
    state = act(act(state, OfferSeat(HOST, "p1")), Join("late", "Late"))
    state = forget_player(state, "p3")
    again = GameState.from_json(state.to_json())
    assert again.departed == ["p3"]
    assert again.newcomers == ["late"]
    assert again.to_json() == state.to_json()


# The property: random games, random deletions and vacations, every policy, and never a state without a way
# forward.


def way_forward(state: GameState, departed: set[str]) -> bool:
    """Whether the game can move on: a living player owes a move, or a Timeout the sweep will apply moves
    the departed seats on. A game in play always owes some move."""
    if state.phase is not Phase.STORYTELLING and state.phase not in (Phase.SUBMITTING, Phase.VOTING):
        return True
    awaited = state.awaited()
    assert awaited, "a game in play always owes a move"
    if any(pid not in departed for pid in awaited):
        return True
    timeouts = [due for due in schedule(state) if due.kind is DueKind.TIMEOUT]
    if not timeouts:
        return False
    after = apply(state, Timeout(), now=timeouts[0].at).state
    return (after.version, after.phase, after.awaited()) != (state.version, state.phase, awaited)


@settings(max_examples=60, deadline=None)
@given(
    policy=st.sampled_from(POLICIES),
    players=st.integers(min_value=3, max_value=6),
    seed=st.integers(min_value=0, max_value=2**16),
    steps=st.integers(min_value=10, max_value=120),
)
def test_no_state_of_a_game_with_deletions_and_vacations_lacks_a_way_forward(
    policy: str, players: int, seed: int, steps: int
) -> None:
    rng = random.Random(seed)
    state = seated_game(players, seed=seed, policy=policy, target_score=10)
    bots = {p: RandomBot(p, seed + n) for n, p in enumerate(state.player_ids)}
    departed: set[str] = set()
    now = NOW
    for _ in range(steps):
        if state.phase is Phase.FINISHED:
            break
        assert way_forward(state, departed), state.to_json()
        living = [p for p in state.player_ids if p not in departed]
        if living:
            assert state.host_id in living
        choice = rng.random()
        move: Move | None = None
        if choice < 0.1 and living:
            gone = rng.choice(living)
            state = forget_player(state, gone)
            departed.add(gone)
            continue
        if choice < 0.2 and living:
            move = Vacation(rng.choice(living), rng.randint(1, 3))
        elif choice < 0.3 and living and departed & set(state.player_ids):
            seat = rng.choice(sorted(departed & set(state.player_ids)))
            move = rng.choice([OfferSeat(state.host_id, seat), RemovePlayer(state.host_id, seat)])
        elif choice < 0.35 and state.offered:
            newcomer = f"n{rng.randrange(10**6)}"
            bots[newcomer] = RandomBot(newcomer, seed)
            move = Join(newcomer, "Newcomer")
        elif choice < 0.7:
            awake = [p for p in state.awaited() if p not in departed]
            if awake:
                mover = rng.choice(awake)
                move = bots[mover].choose(view_for(state, mover))
        if move is None:
            # Nobody living moves: time passes to the sweep's next timeout, if any.
            timeouts = [due for due in schedule(state) if due.kind is DueKind.TIMEOUT]
            if not timeouts:
                continue
            now = max(now, timeouts[0].at)
            move = Timeout()
        try:
            state = act(state, move, now=now)
        except DixitError:
            continue
    assert way_forward(state, departed)
    # What the examples covered (pytest --hypothesis-show-statistics).
    event(f"{policy}: {state.phase.value}, {len(departed) if len(departed) < 3 else '3 or more'} deleted")
