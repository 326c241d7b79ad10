"""How the inbox history and the lobby listing sort: shared by every store of those items."""

from __future__ import annotations

from app.core.records import GameRecord, Membership, Visibility
from dixit.state import Phase

# Finished games' memberships sort under this prefix, newest first; active ones stay under "GAME#", so
# the inbox's query reads only active games however long a player's history.
FINISHED_PREFIX = "DONE#"


def finished_key(entry: Membership) -> str:
    """Where a finished game sits in its player's history: by finish time, then game id."""
    return f"{entry.updated_at}#{entry.game_id}"


def lobby_key(record: GameRecord) -> str | None:
    """The lobby listing's sort key for an open public lobby (newest first), else None."""
    state = record.state
    if state.phase is Phase.LOBBY and record.visibility is Visibility.PUBLIC:
        return f"{record.created_at}#{record.game_id}"
    return None


def due_entry(record: GameRecord) -> int | None:
    """The game's due index entry (app.games.due_index): finished games have none."""
    return None if record.state.phase is Phase.FINISHED else record.due_at
