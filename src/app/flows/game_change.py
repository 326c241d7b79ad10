"""What a change of a game item sets off, off the move path: the round's history, each member's inbox
entry, the events for the feed and the webhooks that want them, and the notifications (whose turn it is,
how it ended, a rematch opened); at the end, when the game's table talk expires.

The move path stays one conditional write; the table's stream (NEW_AND_OLD_IMAGES) hands GameStreamFunction
each change, which decodes it once (`GameChange.of_images`) and calls `on_game_change`. The order is the
guarantee: the round's history first (whoever hears of the round can read it), then the inbox, then the
feed and the webhooks, then the live channel's signal (app.live: the clients watching refetch), then
the notifications. A failure raises, the stream record alone is reported failed (ReportBatchItemFailures)
and retried, and what went before is then written again idempotently,
while nobody is told twice: the retry rewrites no inbox entry (each write is conditional on the entry's
version), puts the same round item (app.games.history), writes the same feed items and enqueues the same
delivery ids (positions and event ids come from the game version), and redelivers with the same dedupe
ids, which every channel recognises.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.core.errors import StoreUnavailable
from app.core.telemetry import count, logger
from app.feed import feed
from app.feed.events import Event
from app.flows.bundles import ChangePorts
from app.games import history, inbox, state_codec
from app.live.signals import announcement
from app.notify.delivery import Delivery
from app.notify.messages import Notification, changes
from app.notify.rematch_news import invitations
from app.talk import expiry as talk_expiry
from app.webhooks.dispatch import enqueue_events
from dixit.lean_dataclass import dataclass
from dixit.state import GameState, Phase, RoundResult


@dataclass(frozen=True, slots=True)
class GameChange:
    """One change of a game item: its states before and after (None: no item), and what the new item
    says besides its state."""

    old: GameState | None
    new: GameState | None
    # The commit time (the new item's `updated_at`), not now: a replayed record makes the same events.
    committed_at: str | None = None
    # The full reveal the write carried, when its state could not tell it whole (app.games.history).
    reveal: RoundResult | None = None
    rematch_of: str | None = None  # the finished game a rematch lobby rematches
    invite_code: str | None = None

    @classmethod
    def of_images(
        cls, old_image: Mapping[str, Any] | None, new_image: Mapping[str, Any] | None
    ) -> GameChange:
        """The change the stream's old and new images (deserialized) tell, each state decoded once."""
        old, new = state_codec.stored(old_image), state_codec.stored(new_image)
        image = new_image or {}
        committed_at, rematch_of = image.get("updated_at"), image.get("rematch_of")
        code = image.get("invite_code")
        return cls(
            old,
            new,
            committed_at=committed_at if isinstance(committed_at, str) and new is not None else None,
            reveal=history.carried_reveal(old_image, new_image),
            rematch_of=rematch_of if isinstance(rematch_of, str) else None,
            invite_code=code if isinstance(code, str) else None,
        )

    @property
    def opened_rematch(self) -> str | None:
        """The finished game whose rematch lobby this change created (only the creation counts: however
        many players call rematch, the conditional create lets one through)."""
        if self.old is not None or self.new is None or self.new.phase is not Phase.LOBBY:
            return None
        return self.rematch_of


def on_game_change(ports: ChangePorts, change: GameChange, delivery: Callable[[], Delivery]) -> None:
    """Everything one change of a game item sets off, in order (see the module)."""
    old, new = change.old, change.new
    if history.record(ports.games, old, new, change.reveal):
        count("RoundsRecorded")
    refreshed = inbox.refresh(ports.inbox, old, new, change.committed_at or "")
    if refreshed:
        count("InboxEntriesWritten", refreshed)
    finished = rematched(ports, change)  # read once: for the feed's `rematch.opened` and the invitations
    record_events(ports, change, finished)
    if talk_expiry.expire_at_the_end(ports, old, new):
        count("GameTalkExpirySet")
    announce_live(ports, change)
    invited = unblocked(ports, new, invitations(finished, new, change.invite_code))
    notify(delivery, changes(old, new) + invited)


def unblocked(ports: ChangePorts, new: GameState | None, invites: list[Notification]) -> list[Notification]:
    """A rematch's invitations less those a block between its opener and the invitee refuses, quietly:
    neither is told (one batch read, and only when a rematch lobby has just opened)."""
    if not invites or new is None:
        return invites
    blocks = ports.talk.blocks_between(new.host_id, [n.player_id for n in invites])
    apart = {player for pair in blocks for player in pair} - {new.host_id}
    return [n for n in invites if n.player_id not in apart]


class LiveNotQueued(StoreUnavailable):
    """The live queue refused the change's signal: the stream record is retried (a repeat costs a 304)."""


def announce_live(ports: ChangePorts, change: GameChange) -> None:
    """One message on the live queue for the sender (handlers.live_delivery): after the inbox is written,
    so a client told `inbox.changed` reads the new entry; never inline, so no move waits on a socket."""
    told = announcement(change.old, change.new)
    if told is None or not ports.live_queue.configured():
        return
    if ports.live_queue.send([told.to_json()]):
        raise LiveNotQueued("the live queue refused a game's change")
    count("LiveAnnounced")


def notify(delivery: Callable[[], Delivery], notifications: list[Notification]) -> None:
    """The change's notifications, last (the one place this flow hands them to notification delivery);
    `delivery` is built only when there is someone to tell."""
    if not notifications:
        return
    outcomes = delivery().deliver_all(notifications)
    logger.info(
        "game change notified",
        extra={
            "game_id": notifications[0].game_id,
            "kinds": sorted({n.kind.value for n in notifications}),
            "outcomes": {str(k): v for k, v in outcomes.items()},
        },
    )


def rematched(ports: ChangePorts, change: GameChange) -> GameState | None:
    """The finished game of the rematch lobby this change created; None for any other change, or when
    that game is gone (every player erased: nobody left to tell)."""
    finished_id = change.opened_rematch
    if finished_id is None:
        return None
    finished = ports.games.load_game(finished_id)
    return None if finished is None else finished.state


def record_events(ports: ChangePorts, change: GameChange, finished: GameState | None) -> list[Event]:
    """The change's events to the feed, each batch then to the webhooks that want it; the events.

    `finished`: the game whose rematch this change opened (`rematched`), told in its own feed.
    """
    new = change.new
    if new is None:
        return []  # a deleted game item: nothing happened in the game
    events = feed.record_change(ports, change.old, new, occurred_at=change.committed_at)
    if events:
        enqueue_events(ports, ports.webhook_queue, events)
    if finished is not None:
        opened = feed.record_rematch(ports, finished, new, occurred_at=change.committed_at or ports.now_iso())
        enqueue_events(ports, ports.webhook_queue, opened)
        events += opened
    if events:
        logger.info(
            "game events recorded",
            extra={"game_id": new.game_id, "version": new.version, "events": len(events)},
        )
    return events
