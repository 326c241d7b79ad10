"""What a missed deadline does: under `skip` the silent players' moves are skipped, under `autoplay` a
random legal card or vote is played for them. Under `wait` a deadline only reminds, but for the seats of
deleted accounts (dixit.departures): theirs are played for them, so no seat freezes a game. Nobody times
out asleep (dixit.asleep): a timeout applied inside the owing player's quiet hours leaves them be."""

from __future__ import annotations

from dixit.asleep import timing_out, woken_by
from dixit.ending import abandon_if_deserted
from dixit.errors import IllegalMoveError
from dixit.guards import IN_PLAY, current_round, require_phase
from dixit.round_flow import move_on_when_done, pass_role
from dixit.settings import TimeoutPolicy, cards_to_submit
from dixit.state import AWAY_AFTER, STOPPED_AFTER, GameState, Phase, Round, RoundResult


def require_due(state: GameState, now: int) -> None:
    require_phase(state, *IN_PLAY)
    deadline = state.deadline()
    if deadline is None or now < deadline:
        raise IllegalMoveError("not_due", f"the owed moves time out at {deadline}, not at {now}")
    woken = woken_by(state, now)
    if woken is not None:
        raise IllegalMoveError("not_due", f"the owing players sleep until {woken}: nobody times out asleep")


def timeout(state: GameState, now: int) -> tuple[tuple[str, ...], RoundResult | None]:
    """The deadline of some owed moves passed: under `skip` they are skipped, under `autoplay` a random
    legal card or vote is played for the silent players (a silent storyteller passes the role either
    way). Only the moves whose own deadline passed time out: an extended or vacationing player keeps
    their time, a player inside their quiet hours at `now` keeps their move until they wake
    (dixit.asleep), and the phase goes on once nobody owes a move.

    Returns who timed out, and the round's reveal if that finished it."""
    policy = state.settings.timeout_policy
    silent = timing_out(state, now)  # under `wait`, only the departed seats
    autoplay = policy is TimeoutPolicy.AUTOPLAY
    for pid in silent:
        player = state.player(pid)
        assert player is not None
        # Never lowered: a departed seat stays at STOPPED_AFTER under `skip` too.
        player.missed = max(player.missed, min(player.missed + 1, STOPPED_AFTER if autoplay else AWAY_AFTER))
    rnd = current_round(state)
    finished: RoundResult | None = None
    if state.phase is Phase.STORYTELLING:
        pass_role(state, now)
    else:
        play_for = _autoplay_card if state.phase is Phase.SUBMITTING else _autoplay_vote
        for pid in silent:
            if autoplay or policy is TimeoutPolicy.WAIT:
                play_for(state, rnd, pid)
            else:
                rnd.sitting_out.append(pid)
        finished = move_on_when_done(state, now)
    if autoplay and state.phase is not Phase.FINISHED:
        abandon_if_deserted(state, now)
    return silent, finished


def _autoplay_card(state: GameState, rnd: Round, player_id: str) -> None:
    hand = state.hands[player_id]
    wanted = cards_to_submit(len(state.players))
    if len(hand) < wanted:
        rnd.sitting_out.append(player_id)
        return
    cards = state.next_rng().sample(hand, wanted)
    for card in cards:
        hand.remove(card)
    rnd.submissions[player_id] = cards
    rnd.autoplayed.append(player_id)


def _autoplay_vote(state: GameState, rnd: Round, player_id: str) -> None:
    own = set(rnd.submissions[player_id])
    choices = [card for card in rnd.table if card not in own]
    rnd.votes[player_id] = state.next_rng().sample(choices, 1)
    rnd.autovoted.append(player_id)
