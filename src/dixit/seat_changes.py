"""The host's answers to a player who stopped playing a started game: offering their seat to a newcomer
(who takes it, hand and score and all) or removing it, and the removed seats leaving between rounds."""

from __future__ import annotations

from dataclasses import replace

from dixit.errors import IllegalMoveError
from dixit.guards import IN_PLAY, require_member, require_newcomer, require_phase
from dixit.moves import OfferSeat, RemovePlayer, TakeSeat
from dixit.settings import MIN_PLAYERS
from dixit.state import GameState, RoundResult
from dixit.text import check_name


def require_timed_out_seat(state: GameState, host_id: str, seat_id: str) -> None:
    """What the host's controls need: a game in play, the host asking, another player who timed out
    (and has not moved since), whose seat is not leaving already."""
    require_phase(state, *IN_PLAY)
    require_member(state, host_id)
    if host_id != state.host_id:
        raise IllegalMoveError("not_host", "only the host can offer or remove a seat")
    seat = require_member(state, seat_id)
    if seat_id == host_id:
        raise IllegalMoveError("own_seat", "the host cannot offer or remove their own seat")
    if seat.missed < 1:
        raise IllegalMoveError("not_timed_out", "a seat can be offered or removed once its player timed out")
    if seat_id in state.leaving:
        raise IllegalMoveError("already_leaving", "that player is already leaving the table")


def offer_seat(state: GameState, move: OfferSeat, now: int) -> None:
    require_timed_out_seat(state, move.player_id, move.seat_id)
    if move.seat_id in state.offered:
        raise IllegalMoveError("already_offered", "that seat is already offered")
    state.offered[move.seat_id] = now


def first_offered_seat(state: GameState) -> str:
    """The offered seat the invite link gives a newcomer once the game started: the first in seat order."""
    return next(pid for pid in state.player_ids if pid in state.offered)


def take_seat(state: GameState, move: TakeSeat) -> GameState:
    """The newcomer in the offered seat: the stored form names players by seat, so renaming the seat's
    player is all it takes for the hand, the score and every part of the round to follow.

    But for the round's secret (`mid_round_secret`). Move the round on afterwards (`move_on_when_done`):
    the seat's vote may have been the last one owed."""
    require_phase(state, *IN_PLAY)
    require_newcomer(state, move.player_id)
    if move.seat_id not in state.offered:
        raise IllegalMoveError("seat_not_offered", "that seat is not offered")
    seat = state.seat_of(move.seat_id)
    data = state.to_dict()
    data["players"][seat] = [move.player_id, check_name(move.name), state.players[seat].score, 0]
    if data.get("host_id") == move.seat_id:
        data["host_id"] = move.player_id
    data["offered"] = [[s, at] for s, at in data.get("offered", ()) if s != seat]
    # The seat is a newcomer's now: no longer a deleted account's, and the latest seated.
    data["departed"] = [s for s in data.get("departed", ()) if s != seat]
    data["newcomers"] = [*(s for s in data.get("newcomers", ()) if s != seat), seat]
    taken = GameState.from_dict(data)
    keep_round_secret(taken, move.player_id)
    return taken


def keep_round_secret(state: GameState, newcomer_id: str) -> None:
    """A seat taken once its card for the round is in (a decoy, played by the old player or for them,
    or the storyteller's card): the newcomer gets the seat's hand and score at once, but not that card,
    which would tell a host playing a second account one card that is not the storyteller's. Their view
    leaves out the seat's card(s) and vote of this round (`Round.joined`, dixit.views) and the seat sits
    out what is left of it: a vote it still owes is not cast (as a silent voter's under `skip`, it scores
    nothing either way), since a refused vote for one's own card would tell the same secret. Its card stays
    on the table and scores for the seat as any decoy. The newcomer plays from the next round."""
    rnd = state.round
    if rnd is None:
        return
    played = newcomer_id in rnd.submissions or (newcomer_id == rnd.storyteller_id and rnd.storyteller_card)
    if not played:
        return  # nothing of the round is the seat's yet: the newcomer plays it as their own
    rnd.joined.append(newcomer_id)
    if newcomer_id in rnd.submissions and newcomer_id not in rnd.votes and newcomer_id not in rnd.sitting_out:
        rnd.sitting_out.append(newcomer_id)


def remove_player(state: GameState, move: RemovePlayer) -> None:
    """Removal follows the rules for leaving, which in a started game means at the end of the round: the
    round's cards, hands and table sizes stay as dealt, and the seat follows the timeout policy until
    then. The table never drops below the minimum: offer the seat instead."""
    require_timed_out_seat(state, move.player_id, move.seat_id)
    if len(state.players) - len(state.leaving) - 1 < MIN_PLAYERS:
        raise IllegalMoveError(
            "too_few_players", f"a game needs at least {MIN_PLAYERS} players: offer the seat instead"
        )
    state.leaving.append(move.seat_id)
    state.offered.pop(move.seat_id, None)


def drop_leavers(state: GameState, storyteller_id: str) -> str:
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
        state.departed = [pid for pid in state.departed if pid not in gone]
        state.newcomers = [pid for pid in state.newcomers if pid not in gone]
        state.leaving = []
        if state.last_round is not None:
            # The game item names players by seat, so the last reveal keeps only seated ones (the round's
            # full reveal stays in the history, which names players by id).
            last = state.last_round
            # A departed storyteller takes the last reveal with them: there is no seat to name.
            state.last_round = None if last.storyteller_id in gone else _without(last, gone)
    return next_id


def _without(result: RoundResult, gone: set[str]) -> RoundResult:
    """The reveal with the players in `gone` taken out of it (the round, clue and cards stay)."""
    return replace(
        result,
        cards=tuple(
            replace(
                c,
                owner_id="" if c.owner_id in gone else c.owner_id,
                voter_ids=tuple(v for v in c.voter_ids if v not in gone),
            )
            for c in result.cards
        ),
        points={pid: p for pid, p in result.points.items() if pid not in gone},
        autovoted=tuple(v for v in result.autovoted if v not in gone),
    )
