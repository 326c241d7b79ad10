"""The inbox: each player's entry for each game, built when the game changes and read without the game.

An entry is rebuilt for every member after every move, but only the entries that show something new are
written (in the same transaction as the move), so the inbox reads its membership items and nothing else.
"""

from __future__ import annotations

import base64
import binascii

from app.records import GameRecord, Membership, Waiting
from dixit.errors import InvalidMoveError
from dixit.state import Phase
from dixit.views import owes, view_for, your_turn

FINISHED_PAGE = 20
_MAX_CURSOR_LENGTH = 200


def entries_for(record: GameRecord) -> dict[str, Membership]:
    """Every seated player's inbox entry for this game, by player id."""
    state = record.state
    public = view_for(state, None)
    waiting = () if public.round is None else public.round.waiting
    named = tuple(Waiting(w.player_id, w.name, w.move.value, w.deadline) for w in waiting)
    entries = {}
    for player in state.players:
        owed = owes(state, player.player_id)
        entries[player.player_id] = Membership(
            player_id=player.player_id,
            game_id=state.game_id,
            phase=state.phase,
            your_turn=your_turn(state, player.player_id),
            deadline=None if owed is None else owed.deadline,
            round_number=None if state.round is None else state.round.number,
            waiting=named,
            player_count=len(state.players),
            end_reason=state.end_reason,
            updated_at=record.updated_at,
        )
    return entries


def changed_entries(before: GameRecord, after: GameRecord) -> list[Membership]:
    """The entries `after` must write: those that show something `before` did not."""
    old = entries_for(before)
    return [entry for pid, entry in entries_for(after).items() if not entry.same_entry(old.get(pid))]


_PHASE_ORDER = {
    Phase.STORYTELLING: 0,
    Phase.SUBMITTING: 0,
    Phase.VOTING: 0,
    Phase.LOBBY: 1,
    Phase.FINISHED: 2,
}


def most_urgent_first(entries: list[Membership]) -> list[Membership]:
    """Your turn first, the nearest deadline first; then games waiting on others; then lobbies."""
    return sorted(
        entries,
        key=lambda e: (
            not e.your_turn,
            e.deadline is None,
            e.deadline or 0,
            _PHASE_ORDER[e.phase],
            e.updated_at,
        ),
    )


def encode_cursor(key: str | None) -> str | None:
    return None if key is None else base64.urlsafe_b64encode(key.encode()).decode().rstrip("=")


def decode_cursor(cursor: str | None) -> str | None:
    """The history key a client's `cursor` stands for; a cursor this API never gave is a 422."""
    if cursor is None:
        return None
    try:
        if len(cursor) > _MAX_CURSOR_LENGTH:
            raise ValueError(cursor)
        key = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise InvalidMoveError("bad_cursor", "that cursor was not given by this API") from None
    if "#g_" not in key:
        raise InvalidMoveError("bad_cursor", "that cursor was not given by this API")
    return key
