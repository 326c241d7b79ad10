"""How a round moves on once the moves it waits for are in (or skipped): the table is laid out, the round
is scored and the next one dealt, or the storyteller's turn passes without a scored round."""

from __future__ import annotations

from dixit.ending import end_after_scoring, end_if_idle, finish_game
from dixit.guards import current_round
from dixit.results import EndReason, RoundResult
from dixit.scoring import counted_votes, score_current_round
from dixit.seat_changes import drop_leavers
from dixit.settings import Ruleset, TimeoutPolicy, hand_size
from dixit.state import GameState, Phase, Round


def begin_phase(state: GameState, rnd: Round, phase: Phase, now: int) -> None:
    """The round enters `phase`: its owed moves are owed from `now`, none of them extended yet."""
    rnd.since = now
    rnd.extended = {}  # an extension is for one owed move
    state.phase = phase


def move_on_when_done(state: GameState, now: int) -> RoundResult | None:
    """Once nobody present owes a move of the phase: lay out the table after the submissions, or score
    the round after the votes (its reveal returned)."""
    if state.awaited():
        return None
    if state.phase is Phase.SUBMITTING:
        close_submissions(state, now)
    elif state.phase is Phase.VOTING:
        return finish_round(state, now)
    return None


def skip_away(state: GameState, now: int) -> None:
    """Skip at once the owed moves of away players, as a timeout would, until someone present owes one.

    Only `skip` skips away players: `autoplay` plays for them at each deadline, which keeps their seat
    in every round. Voting needs nothing here: an away player never has a card on the table, since
    submitting brings them back.
    """
    if state.settings.timeout_policy is not TimeoutPolicy.SKIP:
        return
    while state.phase in (Phase.STORYTELLING, Phase.SUBMITTING):
        rnd = current_round(state)
        away = [pid for pid in state.awaited() if _is_away(state, pid)]
        if not away:
            return
        if state.phase is Phase.STORYTELLING:
            pass_role(state, now)
            continue
        rnd.sitting_out.extend(away)
        move_on_when_done(state, now)
        return


def _is_away(state: GameState, player_id: str) -> bool:
    player = state.player(player_id)
    return player is not None and player.away


def pass_role(state: GameState, now: int) -> None:
    """The storyteller's turn ends without a scored round: the role goes to the next seat, same hands."""
    rnd = current_round(state)
    state.idle_turns += 1
    if not end_if_idle(state):
        _next_turn(state, rnd, rnd.number, now, deal=False)


def close_submissions(state: GameState, now: int) -> None:
    """Nobody present still owes a card: lay out the table, or void the round if it is too thin."""
    rnd = current_round(state)
    assert rnd.storyteller_card is not None
    beside = [c for cards in rnd.submissions.values() for c in cards]
    if len(beside) < 2:
        # Too few cards to hide the storyteller's: everyone takes their cards back and the role passes.
        state.hands[rnd.storyteller_id].append(rnd.storyteller_card)
        for pid, cards in rnd.submissions.items():
            state.hands[pid].extend(cards)
        pass_role(state, now)
        return
    # Sorting first makes the order a function of the set of cards and the RNG alone,
    # never of who played what or when.
    table = sorted([rnd.storyteller_card, *beside])
    state.next_rng().shuffle(table)
    rnd.table = table
    begin_phase(state, rnd, Phase.VOTING, now)


def finish_round(state: GameState, now: int) -> RoundResult:
    """Every vote is in: score the round, then end the game or deal the next round."""
    rnd = current_round(state)
    result = score_current_round(state, rnd)
    state.last_round = result
    # The table goes to the discard: clearing the round is all it takes, the discard being derived.
    state.round = None
    # A round without a single vote scores nothing, and counts towards abandoning the game.
    state.idle_turns = 0 if counted_votes(rnd) else state.idle_turns + 1
    if not end_after_scoring(state):
        _next_turn(state, rnd, rnd.number + 1, now, deal=True)
    return result


def _next_turn(state: GameState, after: Round, number: int, now: int, *, deal: bool) -> None:
    """Round `number` starts with the next seat staying at the table as storyteller, after the leaving
    seats are gone and (`deal`) every hand is refilled; the game ends if the deck cannot refill them."""
    next_id = drop_leavers(state, after.storyteller_id)
    if deal and not _refill(state):
        finish_game(state, EndReason.DECK_EXHAUSTED)
        return
    state.round = Round(number=number, storyteller_id=next_id, since=now)
    state.phase = Phase.STORYTELLING
    skip_away(state, now)


def _refill(state: GameState) -> bool:
    """Refill every hand in seat order; False when the game must end for want of cards."""
    size = hand_size(len(state.players))
    odyssey = state.settings.rules is Ruleset.ODYSSEY
    for pid in state.player_ids:
        hand = state.hands[pid]
        hand.extend(state.draw(size - len(hand)))
        if len(hand) < size and odyssey:
            # Odyssey: once the pile is used up, the discard is shuffled into a new one.
            state.reshuffle_discard()
            hand.extend(state.draw(size - len(hand)))
        if len(hand) < size:
            return False
    # Classic ends once the last card has been drawn.
    return bool(state.pile) or odyssey
