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
from dixit.limits import EXTENSION_SECONDS
from dixit.moves import (
    Extend,
    GiveClue,
    Join,
    Leave,
    Move,
    OfferSeat,
    RemovePlayer,
    Start,
    Submit,
    TakeSeat,
    Timeout,
    Vacation,
    Vote,
)
from dixit.quiet_hours import SeatQuiet
from dixit.scoring import is_large_odyssey_table, score_round
from dixit.settings import MIN_PLAYERS, Ruleset, Settings, TimeoutPolicy
from dixit.settings import cards_to_submit as cards_to_submit
from dixit.settings import hand_size as hand_size
from dixit.state import (
    AWAY_AFTER,
    STOPPED_AFTER,
    CardResult,
    EndNote,
    EndReason,
    GameState,
    Phase,
    Player,
    Round,
    RoundResult,
)
from dixit.text import check_clue, name_at_table
from dixit.text import check_name as check_name

IN_PLAY = (Phase.STORYTELLING, Phase.SUBMITTING, Phase.VOTING)
DAY = 24 * 3600
# `autoplay`'s backstop: this many rotations of storytellers without a round scored by a real vote
# abandon the game even with players still answering (say, every clue on time and every vote late). A
# table that plays at all never gets near it: with a third of the moves late, a run of three rotations
# without a scored round is rare enough, ten is next to impossible.
AUTOPLAY_IDLE_ROTATIONS = 10


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


def new_game(
    game_id: str,
    *,
    host_id: str,
    host_name: str,
    settings: Settings,
    seed: int,
    host_quiet: SeatQuiet | None = None,
) -> GameState:
    """A game in the lobby with its host seated first (with their quiet hours, if they keep any)."""
    return GameState(
        game_id=game_id,
        settings=settings,
        seed=seed,
        host_id=host_id,
        players=[Player(host_id, check_name(host_name))],
        quiet={} if host_quiet is None else {host_id: host_quiet},
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
        case Join() if new.phase in IN_PLAY and new.offered:
            # Once the game started, the invite link seats a newcomer in the first offered seat.
            seat_id = next(pid for pid in new.player_ids if pid in new.offered)
            new = _take_seat(new, TakeSeat(move.player_id, move.name, seat_id))
            joined, left = (move.player_id,), (seat_id,)
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
        case Vacation():
            _vacation(new, move, now)
        case Extend():
            _extend(new, move, now)
        case OfferSeat():
            _offer_seat(new, move, now)
        case RemovePlayer():
            _remove_player(new, move)
        case TakeSeat():
            new = _take_seat(new, move)
            joined, left = (move.player_id,), (move.seat_id,)
        case _:
            assert_never(move)
    new.version += 1
    game_finished = new.phase is Phase.FINISHED and state.phase is not Phase.FINISHED
    # A removed seat leaves at the end of a round, whichever move ended it.
    left = (*left, *(pid for pid in state.player_ids if new.player(pid) is None and pid not in left))
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
        case Join() | TakeSeat():
            check_name(move.name)
        case Vacation():
            if not isinstance(move.days, int) or isinstance(move.days, bool) or move.days < 1:
                raise InvalidMoveError("invalid_vacation_days", "a vacation lasts at least one day")
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
    if move.quiet is not None:
        state.quiet[move.player_id] = move.quiet


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
    _answered(state, player, now)
    rnd.storyteller_card = move.card_id
    rnd.clue = check_clue(move.clue)
    rnd.since = now
    rnd.extended = {}  # an extension is for one owed move
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
    _answered(state, player, now)
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
    if state.awaited():
        return None
    return _finish_round(state, now)


# --- deadlines --------------------------------------------------------------------------------------


def _require_due(state: GameState, now: int) -> None:
    _require_phase(state, *IN_PLAY)
    deadline = state.deadline()
    if deadline is None or now < deadline:
        raise IllegalMoveError("not_due", f"the owed moves time out at {deadline}, not at {now}")


def _answered(state: GameState, player: Player, now: int) -> None:
    """A move of the player's own: they are back, from a miss streak, a vacation, an offered seat."""
    player.missed = 0
    if player.on_vacation(now):
        player.vacation_until = now
    state.offered.pop(player.player_id, None)


def _autoplays(state: GameState) -> bool:
    return state.settings.timeout_policy is TimeoutPolicy.AUTOPLAY


def _idle_too_long(state: GameState) -> bool:
    rotations = AUTOPLAY_IDLE_ROTATIONS if _autoplays(state) else 1
    return state.idle_turns >= rotations * len(state.players)


def _timeout(state: GameState, now: int) -> tuple[tuple[str, ...], RoundResult | None]:
    """The deadline of some owed moves passed: under `skip` they are skipped, under `autoplay` a random
    legal card or vote is played for the silent players (a silent storyteller passes the role either
    way). Only the moves whose own deadline passed time out: an extended or vacationing player keeps
    their time, and the phase goes on once nobody owes a move."""
    silent = tuple(pid for pid in state.awaited() if state.deadline_of(pid) <= now)
    autoplay = _autoplays(state)
    for pid in silent:
        player = state.player(pid)
        assert player is not None
        player.missed = min(player.missed + 1, STOPPED_AFTER if autoplay else AWAY_AFTER)
    rnd = _current_round(state)
    finished: RoundResult | None = None
    if state.phase is Phase.STORYTELLING:
        _pass_role(state, now)
    elif state.phase is Phase.SUBMITTING:
        for pid in silent:
            if autoplay:
                _autoplay_card(state, rnd, pid)
            else:
                rnd.sitting_out.append(pid)
        if not state.awaited():
            _close_submissions(state, now)
    else:
        for pid in silent:
            if autoplay:
                _autoplay_vote(state, rnd, pid)
            else:
                rnd.sitting_out.append(pid)
        if not state.awaited():
            finished = _finish_round(state, now)
    if autoplay and state.phase is not Phase.FINISHED:
        _abandon_if_deserted(state, now)
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


def _abandon_if_deserted(state: GameState, now: int) -> None:
    """`autoplay` abandons a game only once fewer than two players still answer and no offered seat is
    younger than one timeout: autoplay keeps any table with two live players going."""
    if sum(p.answering for p in state.players) >= 2:
        return
    timeout = state.settings.move_timeout_seconds
    if any(now - offered_at < timeout for offered_at in state.offered.values()):
        return
    _finish_game(state, EndReason.ABANDONED, EndNote.STOPPED_ANSWERING)


# --- vacations, extensions, offered seats -----------------------------------------------------------


def _vacation(state: GameState, move: Vacation, now: int) -> None:
    _require_phase(state, *IN_PLAY)
    player = _require_member(state, move.player_id)
    if player.on_vacation(now):
        raise IllegalMoveError("already_on_vacation", "you are already on vacation")
    rnd = _current_round(state)
    if player.vacation_until > rnd.since:
        # The last vacation still pushes this move's deadline; a new one would replace that pause.
        raise IllegalMoveError("vacation_this_turn", "you were already on vacation during this move")
    left = state.settings.vacation_days - player.vacation_days_used
    if move.days > left:
        raise IllegalMoveError(
            "no_vacation_days_left",
            f"{left} of this game's {state.settings.vacation_days} vacation days are left",
        )
    player.vacation_start, player.vacation_until = now, now + move.days * DAY
    player.vacation_days_used += move.days


def _extend(state: GameState, move: Extend, now: int) -> None:
    _require_phase(state, *IN_PLAY)
    _require_member(state, move.player_id)
    rnd = _current_round(state)
    if move.for_id not in state.awaited():
        raise IllegalMoveError("not_awaited", "the game is not waiting on that player")
    if move.for_id == move.player_id:
        raise IllegalMoveError("own_move", "an extension is given to someone else")
    if move.for_id in rnd.extended:
        raise IllegalMoveError("already_extended", "that move was already extended once")
    if state.deadline_of(move.for_id) <= now:
        raise IllegalMoveError("deadline_passed", "that move has already timed out")
    rnd.extended[move.for_id] = EXTENSION_SECONDS


def _require_timed_out_seat(state: GameState, host_id: str, seat_id: str) -> None:
    """What the host's controls need: a game in play, the host asking, another player who timed out
    (and has not moved since), whose seat is not leaving already."""
    _require_phase(state, *IN_PLAY)
    _require_member(state, host_id)
    if host_id != state.host_id:
        raise IllegalMoveError("not_host", "only the host can offer or remove a seat")
    seat = _require_member(state, seat_id)
    if seat_id == host_id:
        raise IllegalMoveError("own_seat", "the host cannot offer or remove their own seat")
    if seat.missed < 1:
        raise IllegalMoveError("not_timed_out", "a seat can be offered or removed once its player timed out")
    if seat_id in state.leaving:
        raise IllegalMoveError("already_leaving", "that player is already leaving the table")


def _remove_player(state: GameState, move: RemovePlayer) -> None:
    """Removal follows the rules for leaving, which in a started game means at the end of the round: the
    round's cards, hands and table sizes stay as dealt, and the seat follows the timeout policy until
    then. The table never drops below the minimum: offer the seat instead."""
    _require_timed_out_seat(state, move.player_id, move.seat_id)
    if len(state.players) - len(state.leaving) - 1 < MIN_PLAYERS:
        raise IllegalMoveError(
            "too_few_players", f"a game needs at least {MIN_PLAYERS} players: offer the seat instead"
        )
    state.leaving.append(move.seat_id)
    state.offered.pop(move.seat_id, None)


def _drop_leavers(state: GameState, storyteller_id: str) -> str:
    """Take the leaving seats off the table between rounds; the next storyteller after `storyteller_id`.

    Their hands go to the discard (derived from where the cards are not), their scores with them.
    """
    ids = state.player_ids
    start = ids.index(storyteller_id)
    following = [ids[(start + step) % len(ids)] for step in range(1, len(ids) + 1)]
    next_id = next(pid for pid in following if pid not in state.leaving)
    if state.leaving:
        gone = set(state.leaving)
        state.players = [p for p in state.players if p.player_id not in gone]
        for pid in gone:
            state.hands.pop(pid, None)
            state.offered.pop(pid, None)
        state.leaving = []
        if state.last_round is not None:
            # The game item names players by seat, so the last reveal keeps only seated ones (the round's
            # full reveal stays in the history, which names players by id).
            last = state.last_round
            # A departed storyteller takes the last reveal with them: there is no seat to name.
            state.last_round = None if last.storyteller_id in gone else _without(last, gone)
    return next_id


def _without(result: RoundResult, gone: set[str]) -> RoundResult:
    return RoundResult(
        number=result.number,
        storyteller_id=result.storyteller_id,
        clue=result.clue,
        storyteller_card=result.storyteller_card,
        cards=tuple(
            CardResult(
                c.card_id,
                "" if c.owner_id in gone else c.owner_id,
                tuple(v for v in c.voter_ids if v not in gone),
                c.autoplayed,
            )
            for c in result.cards
        ),
        points={pid: p for pid, p in result.points.items() if pid not in gone},
        autovoted=tuple(v for v in result.autovoted if v not in gone),
    )


def _offer_seat(state: GameState, move: OfferSeat, now: int) -> None:
    _require_timed_out_seat(state, move.player_id, move.seat_id)
    if move.seat_id in state.offered:
        raise IllegalMoveError("already_offered", "that seat is already offered")
    state.offered[move.seat_id] = now


def _take_seat(state: GameState, move: TakeSeat) -> GameState:
    """The newcomer in the offered seat: the stored form names players by seat, so renaming the seat's
    player is all it takes for the hand, the score and every part of the round to follow."""
    _require_phase(state, *IN_PLAY)
    if state.player(move.player_id) is not None:
        raise IllegalMoveError("already_joined", "you are already seated in this game")
    if move.seat_id not in state.offered:
        raise IllegalMoveError("seat_not_offered", "that seat is not offered")
    seat = state.seat_of(move.seat_id)
    data = state.to_dict()
    data["players"][seat] = [move.player_id, check_name(move.name), state.players[seat].score, 0]
    if data.get("host_id") == move.seat_id:
        data["host_id"] = move.player_id
    data["offered"] = [[s, at] for s, at in data.get("offered", ()) if s != seat]
    return GameState.from_dict(data)


def _skip_away(state: GameState, now: int) -> None:
    """Skip at once the owed moves of away players, as a timeout would, until someone present owes one.

    Only `skip` skips away players: `autoplay` plays for them at each deadline, which keeps their seat
    in every round. Voting needs nothing here: an away player never has a card on the table, since
    submitting brings them back.
    """
    if state.settings.timeout_policy is not TimeoutPolicy.SKIP:
        return
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
    if _idle_too_long(state):
        _finish_game(state, EndReason.ABANDONED, EndNote.NO_ROUND_SCORED)
        return
    next_id = _drop_leavers(state, rnd.storyteller_id)
    state.round = Round(number=rnd.number, storyteller_id=next_id, since=now)
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
    rnd.extended = {}  # an extension is for one owed move
    state.phase = Phase.VOTING


def _finish_round(state: GameState, now: int) -> RoundResult:
    rnd = _current_round(state)
    assert rnd.storyteller_card is not None
    assert rnd.clue is not None
    players = state.player_ids
    # Autoplay scores nothing for anyone: an autoplayed vote is left out, and an autoplayed card has no
    # owner to earn its votes (a vote for it still misses the storyteller's card, as for any decoy).
    votes = {pid: cards for pid, cards in rnd.votes.items() if pid not in rnd.autovoted}
    scored = {pid: cards for pid, cards in rnd.submissions.items() if pid not in rnd.autoplayed}
    points = score_round(
        rules=state.settings.rules,
        player_ids=players,
        storyteller_id=rnd.storyteller_id,
        storyteller_card=rnd.storyteller_card,
        submissions={**scored, rnd.storyteller_id: [rnd.storyteller_card]},
        votes=votes,
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
                autoplayed=rnd.owner_of(card) in rnd.autoplayed,
            )
            for card in rnd.table
        ),
        points=points,
        autovoted=tuple(pid for pid in players if pid in rnd.autovoted),
    )
    state.last_round = result
    # The table goes to the discard: clearing the round is all it takes, the discard being derived.
    state.round = None
    # A round without a single vote scores nothing, and counts towards abandoning the game.
    state.idle_turns = 0 if votes else state.idle_turns + 1
    if any(p.score >= state.settings.target_score for p in state.players):
        _finish_game(state, EndReason.TARGET_SCORE)
    elif _idle_too_long(state):
        _finish_game(state, EndReason.ABANDONED, EndNote.NO_ROUND_SCORED)
    else:
        next_id = _drop_leavers(state, rnd.storyteller_id)
        if not _refill(state):
            _finish_game(state, EndReason.DECK_EXHAUSTED)
            return result
        state.round = Round(number=rnd.number + 1, storyteller_id=next_id, since=now)
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


def _finish_game(state: GameState, reason: EndReason, note: EndNote | None = None) -> None:
    state.phase = Phase.FINISHED
    state.end_reason = reason
    state.end_note = note
    state.offered = {}
    state.round = None
    top = max(p.score for p in state.players)
    state.winners = [p.player_id for p in state.players if p.score == top]
