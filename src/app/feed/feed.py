"""The event feed and what a game change means for it: written off the move path, read by members.

`record_change` is the DynamoDB Streams consumer's work for one change of a game item: each member's
events, written to the feed and returned, for the flow (app.flows.game_change) to hand to the webhooks
that want them, so `GET /games/{id}/events` replays exactly what webhooks carry. Positions and event ids
are deterministic, so a retried stream batch rewrites the same items and enqueues the same delivery ids.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from app.core.errors import Forbidden, InvalidInput
from app.core.records import FeedItem, PlayerRecord
from app.feed.events import EVENT_ADAPTER, Event, MessagePosted, derive_for_members, rematch_events
from app.feed.ports import FeedReading, FeedWriting
from app.games.play import load_game
from dixit.lean_dataclass import dataclass
from dixit.state import GameState, Phase

FEED_PAGE_DEFAULT = 50
FEED_PAGE_MAX = 100
# A game event's position, or a message's (its slot, then its id: many messages may share a version).
_POSITION = re.compile(r"^[0-9]{10}\.[0-9]{3}(?:\.m_[0-9]{13}[0-9a-f]{8})?$")


# Within one game version: the sweep's timeouts come first (they made that version), the events the
# Streams consumer derives from the change next, and the sweep's reminders (which leave the version
# alone) last, each reminder point in its own range so a later one never overwrites an earlier one.
TIMEOUT_SLOT = 0
CHANGE_SLOT = 100
REMINDER_SLOT = 900
# A finished game's last version: its rematch opening, after everything else that version made.
REMATCH_SLOT = 990
# Table talk's messages, after everything else of the version they were written at, each under its own
# id (which sorts by time), so any number of them fit between two versions.
MESSAGE_SLOT = 999


def _expiry(ports: FeedWriting) -> int:
    # A finished game's feed lives on for a while (so members can still read how it ended), then goes.
    return int(ports.clock().timestamp()) + ports.settings.feed_ttl_after_end_seconds


def position(version: int, index: int) -> str:
    return f"{version:010d}.{index:03d}"


def _deadline(state: GameState) -> str | None:
    at = state.deadline()
    return None if at is None else datetime.fromtimestamp(at, UTC).isoformat(timespec="seconds")


def feed_items(events: list[Event], first: int = CHANGE_SLOT) -> list[FeedItem]:
    """Each recipient's events of one change, numbered from `first` in the order they happened."""
    counts: dict[str, int] = {}
    items = []
    for event in events:
        index = first + counts.get(event.recipient_id, 0)
        counts[event.recipient_id] = index - first + 1
        items.append(
            FeedItem(
                game_id=event.game_id,
                player_id=event.recipient_id,
                position=position(event.game_version, index),
                event_json=event.model_dump_json(),
            )
        )
    return items


def record_change(
    ports: FeedWriting, old: GameState | None, new: GameState, *, occurred_at: str | None = None
) -> list[Event]:
    """Write the change's events to the feed; the events (for the webhooks that want them)."""
    events = derive_for_members(old, new, occurred_at=occurred_at or ports.now_iso(), deadline=_deadline(new))
    finished = new.phase is Phase.FINISHED
    expires_at = _expiry(ports) if finished else None
    ports.feed.put_feed_items(feed_items(events), expires_at=expires_at)
    if finished and (old is None or old.phase is not Phase.FINISHED):
        ports.feed.expire_feed(new.game_id, expires_at=expires_at or 0)
    return events


def record_rematch(
    ports: FeedWriting, finished: GameState, lobby: GameState, *, occurred_at: str
) -> list[Event]:
    """`rematch.opened` in the finished game's feed (expiring with it); the events (for the webhooks)."""
    events: list[Event] = list(rematch_events(finished, lobby, occurred_at=occurred_at))
    ports.feed.put_feed_items(feed_items(events, REMATCH_SLOT), expires_at=_expiry(ports))
    return events


def record_sweep_events(ports: FeedWriting, events: list[Event], *, first: int, finished: bool) -> None:
    """The sweep's reminders or timeouts, after its write committed, to the feed (the webhooks next).

    Positions and ids come from the game version and the due point, so a sweep that runs again over
    the same point rewrites the same items and enqueues the same delivery ids.
    """
    if not events:
        return
    ports.feed.put_feed_items(feed_items(events, first), expires_at=_expiry(ports) if finished else None)


def record_message(ports: FeedWriting, events: list[MessagePosted], *, finished: bool) -> None:
    """A message's `message.posted` copies to each recipient's feed (the webhooks next, by the flow).

    Posted after the game ended, they expire with its feed at once; before, the game's end expires them
    with the rest of its feed.
    """
    items = [
        FeedItem(
            game_id=event.game_id,
            player_id=event.recipient_id,
            position=f"{position(event.game_version, MESSAGE_SLOT)}.{event.message_id}",
            event_json=event.model_dump_json(),
        )
        for event in events
    ]
    if items:
        ports.feed.put_feed_items(items, expires_at=_expiry(ports) if finished else None)


@dataclass(frozen=True, slots=True)
class FeedPage:
    events: list[Event]
    cursor: str  # resume from here: the position of the last event given, or the one asked after
    has_more: bool


def check_cursor(after: str | None) -> str:
    if after is None or after == "":
        return ""
    if not _POSITION.fullmatch(after):
        raise InvalidInput("invalid_cursor", "after must be a cursor this feed returned")
    return after


def feed_of(
    services: FeedReading, viewer: PlayerRecord, game_id: str, *, after: str | None, limit: int
) -> FeedPage:
    """The viewer's copy of the game's events after the cursor, oldest first."""
    record = load_game(services, game_id)
    start = check_cursor(after)
    items = services.feed.list_feed(game_id, viewer.player_id, after=start, limit=limit)
    if not items and not start and record.state.player(viewer.player_id) is None:
        # Someone who never was a member has no feed; a past member keeps theirs.
        raise Forbidden("not_a_member", "only the game's players have an event feed")
    events = [EVENT_ADAPTER.validate_json(item.event_json) for item in items]
    return FeedPage(
        events=events, cursor=items[-1].position if items else start, has_more=len(items) == limit
    )
