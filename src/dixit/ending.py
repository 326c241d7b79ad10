"""When a started game ends, and who wins it.

A game ends when someone reaches the target score, when the deck cannot refill every hand (dixit.round_flow
asks), or when it is abandoned: storyteller turns without a scored round for too long, or (under
`autoplay`) fewer than two players still answering. A lobby everyone left closes in dixit.seating.
"""

from __future__ import annotations

from dixit.results import EndNote, EndReason
from dixit.settings import TimeoutPolicy
from dixit.state import GameState, Phase

# `autoplay`'s backstop: this many rotations of storytellers without a round scored by a real vote
# abandon the game even with players still answering (say, every clue on time and every vote late). A
# table that plays at all never gets near it: with a third of the moves late, a run of three rotations
# without a scored round is rare enough, ten is next to impossible.
AUTOPLAY_IDLE_ROTATIONS = 10


def finish_game(state: GameState, reason: EndReason, note: EndNote | None = None) -> None:
    """The game is over: the highest scores win (all of them, on a tie)."""
    state.phase = Phase.FINISHED
    state.end_reason = reason
    state.end_note = note
    state.offered = {}
    state.round = None
    top = max(p.score for p in state.players)
    state.winners = [p.player_id for p in state.players if p.score == top]


def idle_too_long(state: GameState) -> bool:
    """Whether the storyteller turns since a round was last scored abandon the game: one rotation under
    `skip` and `wait`, AUTOPLAY_IDLE_ROTATIONS under `autoplay`."""
    autoplay = state.settings.timeout_policy is TimeoutPolicy.AUTOPLAY
    rotations = AUTOPLAY_IDLE_ROTATIONS if autoplay else 1
    return state.idle_turns >= rotations * len(state.players)


def end_if_idle(state: GameState) -> bool:
    """Abandon the game if it went idle too long; whether it did."""
    if not idle_too_long(state):
        return False
    finish_game(state, EndReason.ABANDONED, EndNote.NO_ROUND_SCORED)
    return True


def end_after_scoring(state: GameState) -> bool:
    """End the game if a round just scored decides it (target score reached, or idle too long); whether
    it did."""
    if any(p.score >= state.settings.target_score for p in state.players):
        finish_game(state, EndReason.TARGET_SCORE)
        return True
    return end_if_idle(state)


def abandon_if_deserted(state: GameState, now: int) -> None:
    """`autoplay` abandons a game only once fewer than two players still answer and no offered seat is
    younger than one timeout: autoplay keeps any table with two live players going."""
    if sum(p.answering for p in state.players) >= 2:
        return
    timeout = state.settings.move_timeout_seconds
    if any(now - offered_at < timeout for offered_at in state.offered.values()):
        return
    finish_game(state, EndReason.ABANDONED, EndNote.STOPPED_ANSWERING)
