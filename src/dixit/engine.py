"""Applying moves to a game: the rules of Dixit and Dixit Odyssey, and what a missed deadline does.

`apply` never mutates its input: it returns a new state (and the reveal when the move finished a
round), so a caller can retry the same move against a fresher state after losing a race. The core never
reads a clock: every call says what time it is (`now`, epoch seconds), and the state records when each
owed move started being owed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import assert_never

from dixit.cards import check_card_ids, deck_of
from dixit.errors import IllegalMoveError, InvalidMoveError
from dixit.moves import GiveClue, Join, Leave, Move, Start, Submit, Timeout, Vote
from dixit.scoring import is_large_odyssey_table, score_round
from dixit.settings import MIN_PLAYERS, Ruleset, Settings, TimeoutPolicy
from dixit.settings import cards_to_submit as cards_to_submit
from dixit.settings import hand_size as hand_size
from dixit.state import AWAY_AFTER, CardResult, EndReason, GameState, Phase, Player, Round, RoundResult
from dixit.text import check_clue, name_at_table
from dixit.text import check_name as check_name

IN_PLAY = (Phase.STORYTELLING, Phase.SUBMITTING, Phase.VOTING)


@dataclass(frozen=True, slots=True)
class Applied:
    """The new state and what the move changed, so callers never inspect the move's type."""

    state: GameState
    finished_round: RoundResult | None = None
    joined: tuple[str, ...] = ()
    left: tuple[str, ...] = ()
    game_finished: bool = False
    # Players whose owed move a Timeout skipped (not those skipped at once for being away).
    timed_out: tuple[str, ...] = ()


def allowed_vote_counts(rules: Ruleset, player_count: int) -> tuple[int, ...]:
    return (1, 2) if is_large_odyssey_table(rules, player_count) else (1,)


def new_game(game_id: str, *, host_id: str, host_name: str, settings: Settings, seed: int) -> GameState:
    """A game in the lobby with its host seated first."""
    return GameState(
        game_id=game_id,
        settings=settings,
        seed=seed,
        host_id=host_id,
        players=[Player(host_id, check_name(host_name))],
    )


def apply(state: GameState, move: Move, *, now: int) -> Applied:
    """Apply one move at time `now` (epoch seconds, from the caller's clock).

    Raises InvalidMoveError (malformed) or IllegalMoveError (not legal now).
    """
    _check_shape(move)
    if isinstance(move, Timeout):
        _require_due(state, now)
        if state.settings.timeout_policy is TimeoutPolicy.WAIT:
            # Under `wait` a deadline only ever reminds: nothing in play changes, not even the version.
            return Applied(state.copy())
    new = state.copy()
    finished: RoundResult | None = None
    joined: tuple[str, ...] = ()
    left: tuple[str, ...] = ()
    timed_out: tuple[str, ...] = ()
    match move:
        case Join():
            _join(new, move)
            joined = (move.player_id,)
        case Leave():
            _leave(new, move)
            left = (move.player_id,)
        case Start():
            _start(new, move, now)
        case GiveClue():
            _give_clue(new, move, now)
        case Submit():
            _submit(new, move, now)
        case Vote():
            finished = _vote(new, move, now)
        case Timeout():
            timed_out, finished = _timeout(new, now)
        case _:
            assert_never(move)
    new.version += 1
    game_finished = new.phase is Phase.FINISHED and state.phase is not Phase.FINISHED
    return Applied(new, finished, joined, left, game_finished, timed_out)


# What a seat is called once the account behind it is deleted (app.account.erase).
DELETED_PLAYER_NAME = "Deleted player"


def forget_player(state: GameState, player_id: str, name: str = DELETED_PLAYER_NAME) -> GameState:
    """The game with `player_id`'s seat renamed `name`: what a deleted account leaves behind.

    Nothing else changes: the seat keeps its id, score, hand and place in the round, so finished rounds
    (which name players by id) and other players' results stay whole. There is no leaving a started
    game; a seat nobody can play any more is handled by the game's timeout policy, like any silent
    player's. A lobby is left with the Leave move instead. The version moves on, as after any write
    others must see (their cached views are stale). Raises IllegalMoveError (`not_a_player`) for a
    non-member.
    """
    _require_member(state, player_id)
    new = state.copy()
    _require_member(new, player_id).name = check_name(name)
    new.version += 1
    return new


def _check_shape(move: Move) -> None:
    """Errors no state could fix, checked before anything about the game."""
    match move:
        case Join():
            check_name(move.name)
        case GiveClue():
            deck_of(move.card_id)
            check_clue(move.clue)
        case Submit() | Vote():
            if not check_card_ids(list(move.card_ids)):
                raise InvalidMoveError("wrong_card_count", "choose at least one card")
        case _:
            pass


def _require_phase(state: GameState, *phases: Phase) -> None:
    if state.phase not in phases:
        if state.phase is Phase.FINISHED:
            raise IllegalMoveError("game_finished", "the game is over")
        if Phase.LOBBY in phases:
            raise IllegalMoveError("game_started", "the game has already started")
        wanted = " or ".join(p.value for p in phases)
        raise IllegalMoveError("wrong_phase", f"the game is in {state.phase.value}, not {wanted}")


def _require_member(state: GameState, player_id: str) -> Player:
    player = state.player(player_id)
    if player is None:
        raise IllegalMoveError("not_a_player", "you are not seated in this game")
    return player


def _current_round(state: GameState) -> Round:
    assert state.round is not None, "a game past the lobby always has a round"
    return state.round


def _join(state: GameState, move: Join) -> None:
    _require_phase(state, Phase.LOBBY)
    if state.player(move.player_id) is not None:
        raise IllegalMoveError("already_joined", "you are already seated in this game")
    if len(state.players) >= state.settings.max_players:
        raise IllegalMoveError("game_full", f"the table seats {state.settings.max_players} players")
    # Names stay unique per table by how they read: a second "Ada" (or one with a Cyrillic A, or a
    # hidden ZWSP) is seated as "Ada (2)", so every vote and score names one person.
    taken = [p.name for p in state.players]
    state.players.append(Player(move.player_id, name_at_table(check_name(move.name), taken)))


def _leave(state: GameState, move: Leave) -> None:
    _require_phase(state, Phase.LOBBY)
    _require_member(state, move.player_id)
    state.players = [p for p in state.players if p.player_id != move.player_id]
    if not state.players:
        # Nobody is left to play: the game closes without winners.
        state.phase = Phase.FINISHED
        state.end_reason = EndReason.EVERYONE_LEFT
    elif state.host_id == move.player_id:
        state.host_id = state.players[0].player_id


def _start(state: GameState, move: Start, now: int) -> None:
    _require_phase(state, Phase.LOBBY)
    _require_member(state, move.player_id)
    if move.player_id != state.host_id:
        raise IllegalMoveError("not_host", "only the host can start the game")
    count = len(state.players)
    if count < MIN_PLAYERS:
        raise IllegalMoveError("not_enough_players", f"a game needs at least {MIN_PLAYERS} players")
    # Settings.build made sure the decks deal every hand of a full table.
    state.phase = Phase.STORYTELLING
    size = hand_size(count)
    state.hands = {player.player_id: state.draw(size) for player in state.players}
    first = state.next_rng().randrange(count)
    state.round = Round(number=1, storyteller_id=state.players[first].player_id, since=now)


def _take_from_hand(state: GameState, player_id: str, card_ids: tuple[str, ...]) -> None:
    hand = state.hands[player_id]
    missing = [c for c in card_ids if c not in hand]
    if missing:
        raise IllegalMoveError("card_not_in_hand", f"{', '.join(missing)} is not in your hand")
    for card in card_ids:
        hand.remove(card)


def _give_clue(state: GameState, move: GiveClue, now: int) -> None:
    _require_phase(state, Phase.STORYTELLING)
    player = _require_member(state, move.player_id)
    rnd = _current_round(state)
    if move.player_id != rnd.storyteller_id:
        raise IllegalMoveError("not_storyteller", "only the storyteller gives the clue")
    _take_from_hand(state, move.player_id, (move.card_id,))
    player.missed = 0
    rnd.storyteller_card = move.card_id
    rnd.clue = check_clue(move.clue)
    rnd.since = now
    state.phase = Phase.SUBMITTING
    _skip_away(state, now)


def _submit(state: GameState, move: Submit, now: int) -> None:
    _require_phase(state, Phase.SUBMITTING)
    player = _require_member(state, move.player_id)
    rnd = _current_round(state)
    if move.player_id == rnd.storyteller_id:
        raise IllegalMoveError("storyteller_cannot_submit", "the storyteller already played their card")
    if move.player_id in rnd.submissions:
        raise IllegalMoveError("already_submitted", "you have already submitted this round")
    wanted = cards_to_submit(len(state.players))
    if len(move.card_ids) != wanted:
        raise InvalidMoveError("wrong_card_count", f"submit exactly {wanted} card(s)")
    _take_from_hand(state, move.player_id, move.card_ids)
    # An away player who submits while the round still takes cards is back in it.
    player.missed = 0
    if move.player_id in rnd.sitting_out:
        rnd.sitting_out.remove(move.player_id)
    rnd.submissions[move.player_id] = list(move.card_ids)
    if not state.awaited():
        _close_submissions(state, now)


def _vote(state: GameState, move: Vote, now: int) -> RoundResult | None:
    _require_phase(state, Phase.VOTING)
    player = _require_member(state, move.player_id)
    rnd = _current_round(state)
    if move.player_id == rnd.storyteller_id:
        raise IllegalMoveError("storyteller_cannot_vote", "the storyteller does not vote")
    if move.player_id not in rnd.submissions:
        raise IllegalMoveError(
            "sitting_out", "you sit this round out: only players with a card on the table vote"
        )
    if move.player_id in rnd.votes:
        raise IllegalMoveError("already_voted", "you have already voted this round")
    allowed = allowed_vote_counts(state.settings.rules, len(state.players))
    if len(move.card_ids) not in allowed:
        raise InvalidMoveError("wrong_card_count", f"vote for {' or '.join(map(str, allowed))} card(s)")
    for card in move.card_ids:
        if card not in rnd.table:
            raise IllegalMoveError("card_not_on_table", f"{card} is not on the table")
        if card in rnd.submissions[move.player_id]:
            raise IllegalMoveError("own_card_vote", "you cannot vote for your own card")
    player.missed = 0
    rnd.votes[move.player_id] = list(move.card_ids)
    if state.awaited():
        return None
    return _finish_round(state, now)


# --- deadlines --------------------------------------------------------------------------------------


def _require_due(state: GameState, now: int) -> None:
    _require_phase(state, *IN_PLAY)
    deadline = state.deadline()
    if deadline is None or now < deadline:
        raise IllegalMoveError("not_due", f"the owed moves time out at {deadline}, not at {now}")


def _timeout(state: GameState, now: int) -> tuple[tuple[str, ...], RoundResult | None]:
    """The deadline passed under `skip`: the silent players' owed moves are skipped."""
    silent = state.awaited()
    for pid in silent:
        player = state.player(pid)
        assert player is not None
        player.missed = min(player.missed + 1, AWAY_AFTER)
    rnd = _current_round(state)
    finished: RoundResult | None = None
    if state.phase is Phase.STORYTELLING:
        _pass_role(state, now)
    elif state.phase is Phase.SUBMITTING:
        rnd.sitting_out.extend(silent)
        _close_submissions(state, now)
    else:
        finished = _finish_round(state, now)
    return silent, finished


def _skip_away(state: GameState, now: int) -> None:
    """Skip at once the owed moves of away players, as a timeout would, until someone present owes one.

    Only `skip` games ever have away players, since only a skipping timeout counts a miss. Voting needs
    nothing here: an away player never has a card on the table, since submitting brings them back.
    """
    while state.phase in (Phase.STORYTELLING, Phase.SUBMITTING):
        rnd = _current_round(state)
        away = [pid for pid in state.awaited() if _is_away(state, pid)]
        if not away:
            return
        if state.phase is Phase.STORYTELLING:
            _pass_role(state, now)
            continue
        rnd.sitting_out.extend(away)
        if not state.awaited():
            _close_submissions(state, now)
        return


def _is_away(state: GameState, player_id: str) -> bool:
    player = state.player(player_id)
    return player is not None and player.away


def _pass_role(state: GameState, now: int) -> None:
    """The storyteller's turn ends without a scored round: the role goes to the next seat, same hands."""
    rnd = _current_round(state)
    state.idle_turns += 1
    if state.idle_turns >= len(state.players):
        _finish_game(state, EndReason.ABANDONED)
        return
    next_seat = (state.seat_of(rnd.storyteller_id) + 1) % len(state.players)
    state.round = Round(number=rnd.number, storyteller_id=state.players[next_seat].player_id, since=now)
    state.phase = Phase.STORYTELLING
    _skip_away(state, now)


def _close_submissions(state: GameState, now: int) -> None:
    """Nobody present still owes a card: lay out the table, or void the round if it is too thin."""
    rnd = _current_round(state)
    assert rnd.storyteller_card is not None
    beside = [c for cards in rnd.submissions.values() for c in cards]
    if len(beside) < 2:
        # Too few cards to hide the storyteller's: everyone takes their cards back and the role passes.
        state.hands[rnd.storyteller_id].append(rnd.storyteller_card)
        for pid, cards in rnd.submissions.items():
            state.hands[pid].extend(cards)
        _pass_role(state, now)
        return
    # Sorting first makes the order a function of the set of cards and the RNG alone,
    # never of who played what or when.
    table = sorted([rnd.storyteller_card, *beside])
    state.next_rng().shuffle(table)
    rnd.table = table
    rnd.since = now
    state.phase = Phase.VOTING


def _finish_round(state: GameState, now: int) -> RoundResult:
    rnd = _current_round(state)
    assert rnd.storyteller_card is not None
    assert rnd.clue is not None
    players = state.player_ids
    points = score_round(
        rules=state.settings.rules,
        player_ids=players,
        storyteller_id=rnd.storyteller_id,
        storyteller_card=rnd.storyteller_card,
        submissions={**rnd.submissions, rnd.storyteller_id: [rnd.storyteller_card]},
        votes=rnd.votes,
    )
    for player in state.players:
        player.score += points[player.player_id]
    result = RoundResult(
        number=rnd.number,
        storyteller_id=rnd.storyteller_id,
        clue=rnd.clue,
        storyteller_card=rnd.storyteller_card,
        cards=tuple(
            CardResult(
                card_id=card,
                owner_id=rnd.owner_of(card) or "",
                voter_ids=tuple(pid for pid in players if card in rnd.votes.get(pid, ())),
            )
            for card in rnd.table
        ),
        points=points,
    )
    state.last_round = result
    # The table goes to the discard: clearing the round is all it takes, the discard being derived.
    state.round = None
    # A round without a single vote scores nothing, and counts towards abandoning the game.
    state.idle_turns = 0 if rnd.votes else state.idle_turns + 1
    if any(p.score >= state.settings.target_score for p in state.players):
        _finish_game(state, EndReason.TARGET_SCORE)
    elif state.idle_turns >= len(players):
        _finish_game(state, EndReason.ABANDONED)
    elif not _refill(state):
        _finish_game(state, EndReason.DECK_EXHAUSTED)
    else:
        next_seat = (state.seat_of(rnd.storyteller_id) + 1) % len(players)
        state.round = Round(number=rnd.number + 1, storyteller_id=players[next_seat], since=now)
        state.phase = Phase.STORYTELLING
        _skip_away(state, now)
    return result


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


def _finish_game(state: GameState, reason: EndReason) -> None:
    state.phase = Phase.FINISHED
    state.end_reason = reason
    state.round = None
    top = max(p.score for p in state.players)
    state.winners = [p.player_id for p in state.players if p.score == top]
