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

- `{"type": "messages.changed", "game_id", "message_id"}` to each connection watching the game: its
  table talk changed (a message posted or hidden); the client refetches the messages it may read.
- `{"type": "reactions.changed", "game_id", "target"}` to each connection watching the game: a reaction
  to that round or message was set or taken back; the client refetches the table's reactions.

A client ignores a type it does not know, so a feature may add its own without breaking older clients.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from dixit.lean_dataclass import dataclass
from dixit.state import GameState

# What an announcement is of: the game itself, its table talk, or the reactions at its table.
GAME = "game"
TALK = "talk"
REACTIONS = "reactions"


@dataclass(frozen=True, slots=True)
class Announcement:
    """One change of a game (or of its table talk: `kind` TALK, `message_id` the message posted or
    hidden; or of a reaction: `kind` REACTIONS, `message_id` the round or message reacted to), as the
    live queue carries it."""

    game_id: str
    version: int
    members: tuple[str, ...]
    kind: str = GAME
    message_id: str = ""

    @property
    def dedupe_id(self) -> str:
        if self.kind != GAME:
            return f"{self.game_id}:{self.message_id}:{self.version}:{self.kind}"
        return f"{self.game_id}:{self.version}:live"

    def to_json(self) -> str:
        body: dict[str, Any] = {
            "id": self.dedupe_id,
            "game_id": self.game_id,
            "version": self.version,
            "members": self.members,
        }
        if self.kind != GAME:
            body |= {"kind": self.kind, "message_id": self.message_id}
        return json.dumps(body, separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Announcement:
        data: Any = json.loads(text)
        members = data["members"]
        if not isinstance(members, list) or not all(isinstance(m, str) for m in members):
            raise ValueError("members is a list of player ids")
        # A message without a kind was queued before talk had signals: a game's change.
        kind = str(data.get("kind", GAME))
        if kind not in (GAME, TALK, REACTIONS):
            raise ValueError(f"no announcement kind {kind[:20]}")
        return cls(
            str(data["game_id"]), int(data["version"]), tuple(members), kind, str(data.get("message_id", ""))
        )


def announcement(old: GameState | None, new: GameState | None) -> Announcement | None:
    """What the live channel should hear of this change; None for a deleted game (nothing left to see)."""
    if new is None:
        return None
    before = [] if old is None else [p.player_id for p in old.players]
    members = tuple(dict.fromkeys([*before, *(p.player_id for p in new.players)]))
    return Announcement(new.game_id, new.version, members)


def game_changed(game_id: str, version: int) -> dict[str, Any]:
    return {"type": "game.changed", "game_id": game_id, "version": version}


def talk_announcement(game_id: str, message_id: str, *, hidden: bool = False) -> Announcement:
    """A message posted at the game's table (or hidden by its host: a second signal for one message).
    Only those watching the game hear of it: nobody's games list changes."""
    return Announcement(game_id, 1 if hidden else 0, (), TALK, message_id)


def reactions_announcement(game_id: str, target: str) -> Announcement:
    """A reaction to `target` (`round-<n>` or a message id) set or taken back at the game's table. A
    number of its own (where a game's change has its version) keeps two changes to one target two
    signals."""
    return Announcement(game_id, secrets.randbits(31), (), REACTIONS, target)


def reactions_changed(game_id: str, target: str) -> dict[str, Any]:
    return {"type": "reactions.changed", "game_id": game_id, "target": target}


def messages_changed(game_id: str, message_id: str) -> dict[str, Any]:
    return {"type": "messages.changed", "game_id": game_id, "message_id": message_id}


def inbox_changed(game_id: str, version: int) -> dict[str, Any]:
    return {"type": "inbox.changed", "game_id": game_id, "version": version}


def encoded(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode()
