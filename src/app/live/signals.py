"""What a change of a game tells the live channel: one announcement per change, queued, then one small
message per connection.

The messages carry no secret, only that something changed and its version: each client fetches its own
view (with its ETag: an unchanged view answers 304). So a repeated message costs a 304 and nothing more,
which is why the sender needs no ledger of what it sent (unlike the notification outbox's channels).

The message types are an open set, `<thing>.changed` with the ids a client needs to refetch it:

- `{"type": "game.changed", "game_id", "version"}` to each connection watching the game;
- `{"type": "inbox.changed", "game_id", "version"}` to each other connection of each member (before or
  after the change): their list of games changed. A connection watching the game gets `game.changed`
  alone, which says as much.

A client ignores a type it does not know, so a feature may add its own (table talk's
`messages.changed`) without breaking older clients.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from dixit.state import GameState


@dataclass(frozen=True, slots=True)
class Announcement:
    """One change of a game, as the live queue carries it."""

    game_id: str
    version: int
    members: tuple[str, ...]

    @property
    def dedupe_id(self) -> str:
        return f"{self.game_id}:{self.version}:live"

    def to_json(self) -> str:
        body = {
            "id": self.dedupe_id,
            "game_id": self.game_id,
            "version": self.version,
            "members": self.members,
        }
        return json.dumps(body, separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Announcement:
        data: Any = json.loads(text)
        members = data["members"]
        if not isinstance(members, list) or not all(isinstance(m, str) for m in members):
            raise ValueError("members is a list of player ids")
        return cls(str(data["game_id"]), int(data["version"]), tuple(members))


def announcement(old: GameState | None, new: GameState | None) -> Announcement | None:
    """What the live channel should hear of this change; None for a deleted game (nothing left to see)."""
    if new is None:
        return None
    before = [] if old is None else [p.player_id for p in old.players]
    members = tuple(dict.fromkeys([*before, *(p.player_id for p in new.players)]))
    return Announcement(new.game_id, new.version, members)


def game_changed(game_id: str, version: int) -> dict[str, Any]:
    return {"type": "game.changed", "game_id": game_id, "version": version}


def inbox_changed(game_id: str, version: int) -> dict[str, Any]:
    return {"type": "inbox.changed", "game_id": game_id, "version": version}


def encoded(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode()
