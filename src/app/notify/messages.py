"""What players should hear about, decided from game states alone (no AWS, no clock).

The stream consumer compares a game item's old and new images with `changes`; the sweep builds
reminders and timeouts with `reminder` and `timeout`. A notification carries only what every member
may already see (ids, phase, round number, version): never a hand, a clue or a card.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from enum import StrEnum
from urllib.parse import quote

from dixit.lean_dataclass import dataclass
from dixit.state import GameState, Phase
from dixit.views import may_come_back, waiting_for


class Kind(StrEnum):
    YOUR_TURN = "your_turn"
    REMINDER = "reminder"
    TIMEOUT = "timeout"
    GAME_OVER = "game_over"
    # A finished game's rematch lobby was opened; sent to its other players (app.notify.rematch_news).
    REMATCH = "rematch"


# What a phone shows; the app opens `path` for the rest.
_TEXTS = {
    Kind.YOUR_TURN: "It's your turn in Dixit.",
    Kind.REMINDER: "A Dixit game is waiting for you.",
    Kind.TIMEOUT: "You ran out of time for your move in Dixit.",
    Kind.GAME_OVER: "Your Dixit game is over: see who won.",
}


@dataclass(frozen=True, slots=True)
class Notification:
    kind: Kind
    game_id: str
    player_id: str
    # The game version (your_turn, game_over), the deadline (reminder, timeout) or the nudge time:
    # with game, player and kind it makes the dedupe id, so a redelivered one can be recognised.
    occasion: str
    phase: str | None = None
    round_number: int | None = None
    nudged_by: str | None = None
    # When the owed move times out (your_turn), so a phone can say how long is left.
    deadline: str | None = None
    # A rematch: `game_id` is its lobby, this the finished game (whose mute silences it too), who opened
    # it, and the lobby's invite code for the join link (never in `body`: the topic's subscribers are
    # no players; only the player's own mail and browsers get the link).
    rematch_of: str | None = None
    opener_name: str | None = None
    invite_code: str | None = None

    @property
    def path(self) -> str:
        return f"/games/{self.game_id}"

    @property
    def dedupe_id(self) -> str:
        return f"{self.game_id}:{self.player_id}:{self.occasion}:{self.kind.value}"

    @property
    def web_path(self) -> str:
        """The web client's page for it, relative to where the client is served: a rematch's join page
        (the invite link a host shares), else the game's page."""
        game = quote(self.game_id, safe="")
        if self.kind is not Kind.REMATCH:
            return f"/play/{game}"
        code = "" if self.invite_code is None else f"/{quote(self.invite_code, safe='')}"
        return f"#/join/{game}{code}"

    @property
    def about(self) -> tuple[str, ...]:
        """The games a mute of which silences this notification."""
        return (self.game_id,) if self.rematch_of is None else (self.game_id, self.rematch_of)

    @property
    def text(self) -> str:
        if self.kind is Kind.REMATCH:
            return f"{self.opener_name or 'A player'} opened a rematch — join"
        return _TEXTS[self.kind]

    def body(self) -> dict[str, object]:
        """The small JSON body every channel carries: enough to open the game, nothing more."""
        body: dict[str, object] = {
            "kind": self.kind.value,
            "game_id": self.game_id,
            "player_id": self.player_id,
            "path": self.path,
            "dedupe_id": self.dedupe_id,
        }
        if self.phase is not None:
            body["phase"] = self.phase
        if self.round_number is not None:
            body["round"] = self.round_number
        if self.nudged_by is not None:
            body["nudged_by"] = self.nudged_by
        if self.deadline is not None:
            body["deadline"] = self.deadline
        if self.rematch_of is not None:
            body["rematch_of"] = self.rematch_of
        if self.opener_name is not None:
            body["opener_name"] = self.opener_name
        return body

    def to_json(self) -> str:
        return json.dumps(self.body(), separators=(",", ":"), sort_keys=True)


def _owed(state: GameState | None) -> set[tuple[int, str, str]]:
    """Each owed move as (round, phase, player): owing a vote after owing a card is a new move."""
    if state is None or state.round is None:
        return set()
    return {(state.round.number, state.phase.value, pid) for pid in _told(state)}


def _told(state: GameState) -> tuple[str, ...]:
    """Who hears `your_turn` when a move opens: those it waits on, and away players it would take back."""
    return (*waiting_for(state), *may_come_back(state))


def changes(old: GameState | None, new: GameState | None) -> list[Notification]:
    """Who must hear about the change from `old` to `new` (either may be absent: insert, delete).

    Players who newly owe a move get `your_turn`; every seated player gets `game_over` when the game
    has just finished. Rewrites that change nothing about who owes what (a deadline moved) give nothing.
    """
    if new is None:
        return []
    found: list[Notification] = []
    round_number = None if new.round is None else new.round.number
    newly_owed = _owed(new) - _owed(old)
    deadline = new.deadline()
    deadline_iso = None if deadline is None else datetime.fromtimestamp(deadline, UTC).isoformat()
    for player_id in _told(new):
        if (round_number, new.phase.value, player_id) in newly_owed:
            found.append(
                Notification(
                    Kind.YOUR_TURN,
                    new.game_id,
                    player_id,
                    occasion=str(new.version),
                    phase=new.phase.value,
                    round_number=round_number,
                    deadline=deadline_iso,
                )
            )
    was_finished = old is not None and old.phase is Phase.FINISHED
    if new.phase is Phase.FINISHED and not was_finished:
        found += [
            Notification(Kind.GAME_OVER, new.game_id, pid, occasion=str(new.version), phase=new.phase.value)
            for pid in new.player_ids
        ]
    return found


def rematch_waits(state: GameState | None, player_id: str) -> bool:
    """Whether a rematch invitation to `player_id` still tells the truth: the lobby waits, without them."""
    return state is not None and state.phase is Phase.LOBBY and state.player(player_id) is None


def _while_playing(
    kind: Kind, state: GameState, player_id: str, occasion: str, nudged_by: str | None = None
) -> Notification:
    # The sweep and a nudge tell one player about the round in play, so both say which phase and round.
    return Notification(
        kind,
        state.game_id,
        player_id,
        occasion=occasion,
        phase=state.phase.value,
        round_number=None if state.round is None else state.round.number,
        nudged_by=nudged_by,
    )


def reminder(state: GameState, player_id: str, deadline: str) -> Notification:
    """A reminder that `player_id` still owes a move due at `deadline` (the sweep sends it)."""
    return _while_playing(Kind.REMINDER, state, player_id, deadline)


def timeout(state: GameState, player_id: str, deadline: str) -> Notification:
    """Telling `player_id` their move due at `deadline` was skipped (the sweep sends it after its write)."""
    return _while_playing(Kind.TIMEOUT, state, player_id, deadline)


def nudge(state: GameState, player_id: str, *, by: str, at: str) -> Notification:
    """A member's nudge by hand: a reminder, limited per game (not by the per-player reminder limit)."""
    return _while_playing(Kind.REMINDER, state, player_id, f"nudge-{at}", nudged_by=by)
