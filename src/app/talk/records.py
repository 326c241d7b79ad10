"""A table-talk message as the store keeps it."""

from __future__ import annotations

from dixit.lean_dataclass import dataclass


@dataclass(frozen=True, slots=True)
class MessageRecord:
    game_id: str
    # "m_<epoch ms, 13 digits><8 hex>": sorts by the time it was written, so it is the page cursor too.
    message_id: str
    author_id: str
    author_name: str  # their seat's name when they wrote it
    # None once the author erased their account: the message stays in its place, its words gone.
    text: str | None
    round: int  # the round it was written in (0 in the lobby)
    phase: str  # the phase it was written in
    posted_at: str  # ISO-8601 UTC, to the millisecond
    reported: bool = False  # someone at the table reported it (app.talk.reports)
    hidden_by_host: bool = False  # the host hid it, once reported: nobody reads its words any more


@dataclass(frozen=True, slots=True)
class ReactionRecord:
    game_id: str
    target: str  # "round-<n>" (a revealed round) or a message id
    player_id: str
    reaction: str  # one of dixit.table_talk.REACTIONS
