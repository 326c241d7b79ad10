"""The inbox: each player's entry for each game, built when the game changes and read without the game.

The move path stays one conditional write on the game item: it writes an entry only for a player it
seats (their membership item is written with the move anyway). Every later change reaches the entries
from the table's stream (handlers.game_stream calls `refresh` with the game's old and new state), so the
inbox reads its membership items and nothing else, a moment after the move.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from typing import Protocol

from app.core.records import GameRecord, Membership, Waiting
from dixit.errors import InvalidMoveError
from dixit.state import GameState, Phase
from dixit.views import owes, view_for, your_turn

FINISHED_PAGE = 20
_MAX_CURSOR_LENGTH = 200


class EntryStore(Protocol):
    """Where the stream consumer writes entries (DynamoDB, or memory in tests)."""

    def refresh_entries(self, entries: Sequence[Membership]) -> int:
        """Write each entry over an older one; never over a newer one, never for a member who left."""
        ...

    def file_finished(self, entries: Sequence[Membership]) -> None:
        """Move finished games' entries out of the active range into each player's history."""
        ...


def entries_for(state: GameState, updated_at: str) -> dict[str, Membership]:
    """Every seated player's inbox entry for this game state, by player id."""
    public = view_for(state, None)
    waiting = () if public.round is None else public.round.waiting
    named = tuple(Waiting(w.player_id, w.name, w.move.value, w.deadline) for w in waiting)
    seats = tuple((p.player_id, p.name) for p in state.players)
    rnd = state.round
    # The clue is public to every member once told; before that it is not in the state at all.
    clue = None if rnd is None else rnd.clue
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
            updated_at=updated_at,
            version=state.version,
            title=state.settings.title,
            host_id=state.host_id,
            seats=seats,
            storyteller_id=None if rnd is None else rnd.storyteller_id,
            clue=clue,
            winners=tuple(state.winners),
        )
    return entries


def seated_entries(record: GameRecord, seated: Sequence[str]) -> list[Membership]:
    """The first entries of the players a write seats: they go in with their membership items."""
    if not seated:
        return []  # most moves seat nobody: no view of the game to build for every player
    entries = entries_for(record.state, record.updated_at)
    return [entries[pid] for pid in seated if pid in entries]


def refresh(store: EntryStore, old: GameState | None, new: GameState | None, updated_at: str) -> int:
    """Bring the members' entries up to `new`, from the stream's old and new images; how many it wrote.

    Only entries that show something new are written. Players `new` seats already have theirs (the
    move wrote it); players it unseated have no membership left. A game that has just finished files
    every entry in the players' histories.
    """
    if new is None or (old is not None and old.phase is Phase.FINISHED):
        return 0  # deleted, or finished already: nothing left to show
    entries = entries_for(new, updated_at)
    if new.phase is Phase.FINISHED:
        store.file_finished(list(entries.values()))
        return len(entries)
    before = {} if old is None else entries_for(old, updated_at)
    changed = [e for pid, e in entries.items() if pid in before and not e.same_entry(before[pid])]
    return store.refresh_entries(changed) if changed else 0


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
