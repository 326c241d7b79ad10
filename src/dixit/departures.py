"""A seat whose account was deleted in a started game: it never answers again, so it can never freeze
the game, and it never keeps the host's role.

- Its `missed` count jumps to STOPPED_AFTER: it is away (`skip` skips it at once) and no longer answering
  (`autoplay` abandons a table with fewer than two players answering), and the host may offer or remove
  it at once, whatever the policy (the host's controls need a seat that missed a move).
- At each of its deadlines it is moved on whatever the policy: under `wait`, which otherwise only
  reminds, its card or vote is played and its storyteller turn passes (dixit.timeouts; dixit.deadlines
  schedules that timeout).
- The host's role passes to the longest-seated player still here (`longest_seated`); once nobody is
  left, the game ends (everyone_left).
"""

from __future__ import annotations

from dixit.ending import finish_game
from dixit.guards import IN_PLAY
from dixit.results import EndReason
from dixit.state import STOPPED_AFTER, GameState


def longest_seated(state: GameState) -> str | None:
    """The player seated longest among those whose account is not deleted: those seated from the lobby
    in seat order (which is the order they joined in), then those who took an offered seat, in the order
    they took it; None when nobody is left."""
    present = [pid for pid in state.player_ids if pid not in state.departed]
    first = [pid for pid in present if pid not in state.newcomers]
    late = [pid for pid in state.newcomers if pid in present]
    return next(iter([*first, *late]), None)


def depart(state: GameState, player_id: str) -> None:
    """`player_id`'s account is gone: mark the seat, pass on the host's role, end a game nobody is left at."""
    if state.phase not in IN_PLAY or player_id in state.departed:
        return
    state.departed.append(player_id)
    seat = state.player(player_id)
    assert seat is not None
    seat.missed = max(seat.missed, STOPPED_AFTER)
    heir = longest_seated(state)
    if heir is None:
        finish_game(state, EndReason.EVERYONE_LEFT)
        return
    if state.host_id == player_id:
        state.host_id = heir


def departed_and_due(state: GameState, now: int) -> tuple[str, ...]:
    """The departed seats whose owed move is past its deadline at `now`, in seat order."""
    return tuple(pid for pid in state.awaited() if pid in state.departed and state.deadline_of(pid) <= now)
