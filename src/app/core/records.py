"""What the service keeps besides the rules state: players, and the game item's envelope."""

from __future__ import annotations

import json
from dataclasses import replace
from enum import StrEnum

from dixit.lean_dataclass import dataclass
from dixit.state import EndReason, GameState, Phase


class Visibility(StrEnum):
    PUBLIC = "public"
    PRIVATE = "private"


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    player_id: str
    name: str
    token_hash: str  # empty once the token is revoked: no secret hashes to it
    created_at: str
    token_issued_at: str = ""  # when the current token was issued (empty: at created_at)
    # The player's verified address (normalized: app.players.email), and one awaiting its code; shown only
    # to the player. An address belongs to at most one player (the `EMAIL#<hash>` ownership item).
    email: str = ""
    pending_email: str = ""
    # Epoch seconds when DynamoDB's TTL removes a player who never sat at a table (None: kept for good,
    # from their first game on): a flood of registrations costs storage for a while only.
    expires_at: int | None = None

    @property
    def token_issued(self) -> str:
        return self.token_issued_at or self.created_at


@dataclass(slots=True)
class GameRecord:
    state: GameState
    visibility: Visibility
    invite_code: str
    created_at: str
    updated_at: str
    # The due index entry (epoch seconds): when the sweep must next look at the game (app.games.due_index).
    due_at: int | None = None
    # Ids of the requests whose writes made the latest versions, newest last: a request whose answer was
    # lost finds its id here and knows its write landed (app.games.play.RECENT_REQUESTS of them are kept).
    recent_requests: tuple[str, ...] = ()
    # Players who left a private game since its invite code was issued: that code no longer seats them
    # (a fresh one, from the host, does).
    invite_barred: tuple[str, ...] = ()
    # A rematch lobby: the finished game it rematches, so the stream can tell that game's players of it.
    rematch_of: str | None = None

    @property
    def game_id(self) -> str:
        return self.state.game_id

    @property
    def version(self) -> int:
        return self.state.version


@dataclass(frozen=True, slots=True)
class StoredAnswer:
    """The answer to an Idempotency-Key request, written in the same transaction as what it answers."""

    key_id: str  # a hash of (player, key, route): the record's identity
    fingerprint: str  # a hash of the request body: the same key with another body is refused
    payload: bytes  # the answer, compact and without image links (app.games.idempotency)
    expires_at: int  # epoch seconds; an expired answer is forgotten even before DynamoDB's TTL sweeps it


@dataclass(frozen=True, slots=True)
class Waiting:
    """A player a game waits on, as an inbox entry names them."""

    player_id: str
    name: str
    move: str
    deadline: int  # epoch seconds


@dataclass(frozen=True, slots=True)
class Membership:
    """One player's inbox entry for one game: everything the inbox shows, so it never reads the game.

    The move that seats a player writes their first entry; after that the table's stream consumer
    (handlers.game_stream, through app.games.inbox.refresh) rewrites it, never with an older `version`.
    """

    player_id: str
    game_id: str
    phase: Phase
    your_turn: bool
    deadline: int | None  # when the move this player owes times out (epoch seconds)
    round_number: int | None
    waiting: tuple[Waiting, ...]
    player_count: int
    end_reason: EndReason | None
    updated_at: str
    version: int = 0  # the game version this entry shows
    # What tells the game apart in a list: its title, host and seated players (id, name), the round's
    # storyteller and clue once told, and the winners. Entries written before these existed lack them.
    title: str | None = None
    host_id: str | None = None
    seats: tuple[tuple[str, str], ...] = ()
    storyteller_id: str | None = None
    clue: str | None = None
    winners: tuple[str, ...] = ()

    @property
    def finished(self) -> bool:
        return self.phase is Phase.FINISHED

    def same_entry(self, other: Membership | None) -> bool:
        """Whether `other` shows the same thing (the time and version it was written at aside)."""
        return other is not None and replace(other, updated_at=self.updated_at, version=self.version) == self

    def to_json(self) -> str:
        data: dict[str, object] = {
            "phase": self.phase.value,
            "your_turn": self.your_turn,
            "deadline": self.deadline,
            "round": self.round_number,
            "waiting": [[w.player_id, w.name, w.move, w.deadline] for w in self.waiting],
            "players": self.player_count,
            "end": None if self.end_reason is None else self.end_reason.value,
            "updated_at": self.updated_at,
            "seats": [list(seat) for seat in self.seats],
        }
        optional = {
            "title": self.title,
            "host": self.host_id,
            "teller": self.storyteller_id,
            "clue": self.clue,
            "winners": list(self.winners),
        }
        data.update((k, v) for k, v in optional.items() if v)
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, player_id: str, game_id: str, text: str, version: int = 0) -> Membership:
        data = json.loads(text)
        return cls(
            player_id=player_id,
            game_id=game_id,
            phase=Phase(data["phase"]),
            your_turn=data["your_turn"],
            deadline=data["deadline"],
            round_number=data["round"],
            waiting=tuple(Waiting(*w) for w in data["waiting"]),
            player_count=data["players"],
            end_reason=None if data["end"] is None else EndReason(data["end"]),
            updated_at=data["updated_at"],
            version=version,
            title=data.get("title"),
            host_id=data.get("host"),
            seats=tuple((pid, name) for pid, name in data.get("seats", ())),
            storyteller_id=data.get("teller"),
            clue=data.get("clue"),
            winners=tuple(data.get("winners", ())),
        )


@dataclass(frozen=True, slots=True)
class GameStamp:
    """What a conditional GET needs to answer 304: read from the game item by projection, never the state."""

    version: int
    visibility: Visibility
    member_ids: frozenset[str]


@dataclass(frozen=True, slots=True)
class InboxPage:
    entries: list[Membership]
    # Opaque: where the next page of finished games starts; None at the end.
    next_cursor: str | None = None


@dataclass(frozen=True, slots=True)
class FeedItem:
    """One event of a game as one member sees it; `position` orders a member's feed and is its cursor."""

    game_id: str
    player_id: str
    # "<game version, 10 digits>.<index within that version, 3 digits>", and for a table-talk message
    # ".<message id>" after its slot (app.feed.feed.MESSAGE_SLOT).
    position: str
    event_json: str
