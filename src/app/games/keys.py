"""How the inbox history, the lobby listing and the due index are keyed: shared by every store of those
items (and by the sweep, which reads the due index shard by shard)."""

from __future__ import annotations

import hashlib
from functools import lru_cache

from app.core.records import GameRecord, Membership, Visibility
from dixit.state import Phase

# Finished games' memberships sort under this prefix, newest first; active ones stay under "GAME#", so
# the inbox's query reads only active games however long a player's history.
FINISHED_PREFIX = "DONE#"

# The due index's partitions (app.games.due_index): changing the count orphans entries, since the sweep
# queries DUE#0..DUE_SHARDS-1.
DUE_SHARDS = 8
DUE_PREFIX = "DUE#"


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


@lru_cache(maxsize=1_024)  # every write of a game asks again; a hash of its id never changes
def due_shard(game_id: str) -> str:
    """The due index partition of a game: a hash of its id, so no partition runs hot."""
    digest = hashlib.sha256(game_id.encode()).digest()
    return f"{DUE_PREFIX}{int.from_bytes(digest[:4], 'big') % DUE_SHARDS}"


def due_shards() -> list[str]:
    return [f"{DUE_PREFIX}{n}" for n in range(DUE_SHARDS)]
