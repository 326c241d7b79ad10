"""Notifications held through quiet hours, and their release once the hours end (the sweep asks).

Delivery holds a notification that would reach a player inside their quiet hours
(`Delivery._held`): one item per notification in one of HELD_SHARDS partitions chosen by a hash of the
player id, sorted by release time, so the sweep reads only what is due, with no Scan and no partition
shared by every player. Releasing puts each due item on the outbox's queues first and deletes it (a
conditional delete) only once queued, so a failure leaves it for the next sweep; two overlapping sweeps
may both queue it, and its dedupe ids make it go out once. One whose player deleted their account
meanwhile is dropped (the erasure cannot find these items: they are not in the player's partition). A
reminder or "your turn" whose move is no longer owed, or whose deadline has passed by then, is stale:
dropped, not sent; so is a rematch the player joined meanwhile, or that started without them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import asdict

from app.core.telemetry import count, logger
from app.notify.delivery import Delivery, Outcome
from app.notify.messages import Kind, Notification, rematch_waits
from app.notify.ports import Held, Releasing
from dixit.lean_dataclass import dataclass
from dixit.state import GameState
from dixit.views import may_come_back, waiting_for

HELD_SHARDS = 8  # changing it orphans held items: release reads HELD#0..HELD_SHARDS-1
PAGE_SIZE = 25
# A held item outlives its release by this much at most (TTL), if no sweep ever takes it.
HELD_TTL_AFTER_RELEASE = 3 * 24 * 3600


def shard_of(player_id: str) -> str:
    digest = hashlib.sha256(player_id.encode()).digest()
    return str(int.from_bytes(digest[:4], "big") % HELD_SHARDS)


def shards() -> list[str]:
    return [str(n) for n in range(HELD_SHARDS)]


def to_json(notification: Notification) -> str:
    return json.dumps(asdict(notification), separators=(",", ":"), sort_keys=True)


def from_json(text: str) -> Notification:
    data = json.loads(text)
    return Notification(**{**data, "kind": Kind(data["kind"])})


def stale(notification: Notification, state: GameState | None, now: int) -> bool:
    """Whether a held turn message no longer tells the truth: the move it is about is not owed any more
    (or, for a rematch, the lobby started or seats the player already)."""
    if notification.kind is Kind.REMATCH:
        return not rematch_waits(state, notification.player_id)
    if notification.kind not in (Kind.YOUR_TURN, Kind.REMINDER):
        return False  # a timeout or the game's end stays true
    if state is None or state.round is None:
        return True
    if notification.phase != state.phase.value or notification.round_number != state.round.number:
        return True
    if notification.player_id not in (*waiting_for(state), *may_come_back(state)):
        return True
    deadline = state.deadline()
    return notification.kind is Kind.REMINDER and (deadline is None or deadline <= now)


@dataclass(slots=True)
class ReleaseReport:
    released: int = 0
    dropped: int = 0
    stopped_early: bool = False


def release(
    services: Releasing,
    delivery: Delivery,
    now: int,
    *,
    remaining_ms: Callable[[], int],
    reserve_ms: int,
    page_size: int = PAGE_SIZE,
) -> ReleaseReport:
    """Send (or drop, when stale) every held notification due by `now`, as far as the time allows."""
    report = ReleaseReport()
    for shard in shards():
        start = None
        while True:
            if remaining_ms() < reserve_ms:
                report.stopped_early = True
                return report
            page, start = services.notifications.held_page(shard, now, limit=page_size, start=start)
            for held in page:
                if remaining_ms() < reserve_ms:
                    report.stopped_early = True
                    return report
                _release_one(services, delivery, held, now, report)
            if start is None:
                break
    return report


def _release_one(
    services: Releasing, delivery: Delivery, held: Held, now: int, report: ReleaseReport
) -> None:
    notification = held.notification
    if services.players.get_player(notification.player_id) is None:
        if services.notifications.take_held(held):
            report.dropped += 1
            count("HeldDroppedGone")  # the account was deleted during the night: nobody to tell
        return
    record = services.games.load_game(notification.game_id)
    if stale(notification, None if record is None else record.state, now):
        if services.notifications.take_held(held):
            report.dropped += 1
            count("HeldDroppedStale")
            logger.info("held notification stale, dropped", extra={"dedupe_id": notification.dedupe_id})
        return
    try:
        # Queued first, deleted after: a failure leaves it held for the next sweep. Two overlapping
        # sweeps may both queue it; its dedupe ids make the queue's function send it once.
        outcome = delivery.redeliver(notification)
    except Exception:
        logger.exception("held notification not queued", extra={"dedupe_id": notification.dedupe_id})
        count("HeldDeliveryFailed")
        return
    if not services.notifications.take_held(held):
        return  # an overlapping sweep released it too
    if outcome is Outcome.SENT:
        report.released += 1
        count("HeldReleased")
    else:
        count(f"HeldReleased_{outcome.value}")
