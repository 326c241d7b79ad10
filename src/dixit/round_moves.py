"""A round's own moves: the storyteller's clue, the other players' cards, and their votes."""

from __future__ import annotations

from dixit.errors import IllegalMoveError, InvalidMoveError
from dixit.guards import current_round, require_member, require_phase
from dixit.moves import GiveClue, Submit, Vote
from dixit.round_flow import begin_phase, move_on_when_done, skip_away
from dixit.scoring import allowed_vote_counts
from dixit.settings import cards_to_submit
from dixit.state import GameState, Phase, Player, RoundResult
from dixit.text import check_clue


def give_clue(state: GameState, move: GiveClue, now: int) -> None:
    require_phase(state, Phase.STORYTELLING)
    player = require_member(state, move.player_id)
    rnd = current_round(state)
    if move.player_id != rnd.storyteller_id:
        raise IllegalMoveError("not_storyteller", "only the storyteller gives the clue")
    _take_from_hand(state, move.player_id, (move.card_id,))
    _answered(state, player, now)
    rnd.storyteller_card = move.card_id
    rnd.clue = check_clue(move.clue)
    begin_phase(state, rnd, Phase.SUBMITTING, now)
    skip_away(state, now)


def submit(state: GameState, move: Submit, now: int) -> None:
    require_phase(state, Phase.SUBMITTING)
    player = require_member(state, move.player_id)
    rnd = current_round(state)
    if move.player_id == rnd.storyteller_id:
        raise IllegalMoveError("storyteller_cannot_submit", "the storyteller already played their card")
    if move.player_id in rnd.submissions:
        raise IllegalMoveError("already_submitted", "you have already submitted this round")
    wanted = cards_to_submit(len(state.players))
    if len(move.card_ids) != wanted:
        raise InvalidMoveError("wrong_card_count", f"submit exactly {wanted} card(s)")
    _take_from_hand(state, move.player_id, move.card_ids)
    # An away player who submits while the round still takes cards is back in it.
    _answered(state, player, now)
    if move.player_id in rnd.sitting_out:
        rnd.sitting_out.remove(move.player_id)
    rnd.submissions[move.player_id] = list(move.card_ids)
    move_on_when_done(state, now)


def vote(state: GameState, move: Vote, now: int) -> RoundResult | None:
    """The vote, and the round's reveal when it was the last one owed."""
    require_phase(state, Phase.VOTING)
    player = require_member(state, move.player_id)
    rnd = current_round(state)
    if move.player_id == rnd.storyteller_id:
        raise IllegalMoveError("storyteller_cannot_vote", "the storyteller does not vote")
    if move.player_id not in rnd.submissions:
        raise IllegalMoveError(
            "sitting_out", "you sit this round out: only players with a card on the table vote"
        )
    if move.player_id in rnd.votes:
        raise IllegalMoveError("already_voted", "you have already voted this round")
    if move.player_id in rnd.joined:
        raise IllegalMoveError(
            "sitting_out", "you took this seat during the round: you play from the next one"
        )
    if move.player_id in rnd.sitting_out:
        raise IllegalMoveError("sitting_out", "your vote timed out: the round goes on without it")
    allowed = allowed_vote_counts(state.settings.rules, len(state.players))
    if len(move.card_ids) not in allowed:
        raise InvalidMoveError("wrong_card_count", f"vote for {' or '.join(map(str, allowed))} card(s)")
    for card in move.card_ids:
        if card not in rnd.table:
            raise IllegalMoveError("card_not_on_table", f"{card} is not on the table")
        if card in rnd.submissions[move.player_id]:
            raise IllegalMoveError("own_card_vote", "you cannot vote for your own card")
    _answered(state, player, now)
    rnd.votes[move.player_id] = list(move.card_ids)
    return move_on_when_done(state, now)


def _take_from_hand(state: GameState, player_id: str, card_ids: tuple[str, ...]) -> None:
    hand = state.hands[player_id]
    missing = [c for c in card_ids if c not in hand]
    if missing:
        raise IllegalMoveError("card_not_in_hand", f"{', '.join(missing)} is not in your hand")
    for card in card_ids:
        hand.remove(card)


def _answered(state: GameState, player: Player, now: int) -> None:
    """A move of the player's own: they are back, from a miss streak, a vacation, an offered seat."""
    player.missed = 0
    if player.on_vacation(now):
        player.vacation_until = now
    state.offered.pop(player.player_id, None)
