"""The sweep: remind players before their deadline, time out silent ones, and say when to look again.

It reads only what the due index says is due (app.games.due_index), shard by shard and page by page, and
stops before its time budget runs out: what is left stays due for the next run. Every change is a
conditional write on the game's version and due entry, so a move that lands between the sweep's read
and its write wins, and the sweep looks again. Notifications go out only once the write committed, and
so do the events it makes: to the feed (app.feed), then to the webhooks that want them (app.webhooks).
A timeout whose write committed but whose answer was lost is told all the same: the game read back
holds the sweep's request id (the move path's last look), so it is never counted as a lost race.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from datetime import UTC, datetime

from app.core.errors import AppError
from app.core.records import GameRecord
from app.core.telemetry import count, logger
from app.feed import feed
from app.feed.events import Event, reminder_event, timeout_event
from app.flows.bundles import SweepPorts
from app.games import due_index
from app.games import play as games
from app.games.keys import due_shards
from app.games.play import Step
from app.notify import holding
from app.notify.delivery import Delivery, Outcome
from app.notify.messages import Kind, Notification, reminder, timeout
from app.webhooks.dispatch import enqueue_events
from app.webhooks.ports import WebhookQueue
from dixit import engine
from dixit.asleep import past_due, timing_out
from dixit.deadlines import Due, DueKind
from dixit.engine import Applied
from dixit.lean_dataclass import dataclass
from dixit.moves import Timeout
from dixit.state import Phase

PAGE_SIZE = 25
# Enough for one more game (a read, a write, a few publishes) and a clean return.
RESERVE_MS = 3_000
ATTEMPTS = 3


@dataclass(slots=True)
class SweepReport:
    swept_at: str
    games_due: int = 0
    reminders_sent: int = 0
    reminders_held: int = 0  # muted, held back by the per-player limit, or held through quiet hours
    timeouts_applied: int = 0
    players_timed_out: int = 0
    # Players past their deadline left owing because they slept (dixit.asleep), per run that found them.
    timeouts_held_asleep: int = 0
    entries_moved: int = 0  # nothing reached yet (a move changed the schedule, or a lobby)
    lost_races: int = 0
    pages: int = 0
    stopped_early: bool = False
    # Notifications held through quiet hours: sent once they ended, or dropped as stale by then.
    held_released: int = 0
    held_dropped: int = 0

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class _Acted:
    """What one committed write means to tell: notifications, and the events for the feed and webhooks."""

    notifications: list[Notification]
    events: list[Event]
    first_position: int = feed.REMINDER_SLOT
    finished: bool = False


def iso(epoch: int) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def sweep(
    ports: SweepPorts,
    delivery: Delivery,
    now: int,
    *,
    remaining_ms: Callable[[], int],
    page_size: int = PAGE_SIZE,
    reserve_ms: int = RESERVE_MS,
    webhooks: WebhookQueue | None = None,
) -> SweepReport:
    """Handle every game due at `now`, or as many as the time allows (`stopped_early` then).

    With `webhooks`, reminders and timeouts also go to the event feed and to the webhooks that want them.
    """
    report = SweepReport(iso(now))
    shards = due_shards()
    # Start on a different shard each run, so a run that stops early never starves the same shards.
    first = (now // 60) % len(shards)
    for shard in shards[first:] + shards[:first]:
        start = None
        while True:
            if remaining_ms() < reserve_ms:
                report.stopped_early = True
                return report
            entries, start = ports.games.due_page(shard, now, limit=page_size, start=start)
            report.pages += 1
            for game_id, _ in entries:
                if remaining_ms() < reserve_ms:
                    report.stopped_early = True
                    return report
                report.games_due += 1
                _handle(ports, delivery, game_id, now, report, webhooks)
            if start is None:
                break
    count("GamesSwept", report.games_due)
    # Then what waited through quiet hours (after the games: a timeout must not wait for the mail).
    released = holding.release(ports, delivery, now, remaining_ms=remaining_ms, reserve_ms=reserve_ms)
    report.held_released, report.held_dropped = released.released, released.dropped
    report.stopped_early = released.stopped_early
    return report


def _handle(
    ports: SweepPorts,
    delivery: Delivery,
    game_id: str,
    now: int,
    report: SweepReport,
    webhooks: WebhookQueue | None,
) -> None:
    for _ in range(ATTEMPTS):
        record = ports.games.load_game(game_id)
        if record is None or record.due_at is None or record.due_at > now:
            return  # finished, or handled meanwhile (by a move or an overlapping run)
        try:
            acted = _act(ports, record, now, report)
        except AppError as failed:
            # Out of retries on the move path (busy, or the store failing): still due next run.
            logger.warning(
                "timeout not applied; left for the next run", extra={"game_id": game_id, "code": failed.code}
            )
            count("SweepTimeoutsFailed")
            return
        if acted is not None:
            _count_sleepers(record, now, report)  # on the read this run acted on, once
            _deliver(delivery, acted.notifications, report)
            if webhooks is not None:
                _record_events(ports, webhooks, acted)
            return
        report.lost_races += 1
        count("SweepRacesLost")
    logger.warning("game kept changing under the sweep; left for the next run", extra={"game_id": game_id})


def _timeout_due(record: GameRecord, now: int) -> Due | None:
    if record.due_at is None or record.due_at > now:
        return None
    due = due_index.reached(record.state, record.due_at, now)
    return due if due is not None and due.kind is DueKind.TIMEOUT else None


def _act(ports: SweepPorts, record: GameRecord, now: int, report: SweepReport) -> _Acted | None:
    """One conditional write for what is due; the notifications to send once it committed (None: lost)."""
    if _timeout_due(record, now) is not None:
        return _time_out(ports, record, now, report)
    state = record.state
    assert record.due_at is not None
    due = due_index.reached(state, record.due_at, now)
    new_due = due_index.after_sweep(state, record.visibility, now)
    if not ports.games.set_due(
        record.game_id, version=record.version, expected=record.due_at, due_at=new_due
    ):
        return None
    if due is None:
        report.entries_moved += 1
        return _Acted([], [])
    reminders: list[Event] = []
    deadline = iso(due.deadline)
    for pid in due.player_ids:
        owed = reminder_event(state, pid, deadline=deadline, occurred_at=iso(now), point=due.kind.value)
        if owed is not None:
            reminders.append(owed)
    return _Acted(
        [reminder(state, pid, _occasion(due)) for pid in due.player_ids],
        reminders,
        # One range per reminder point: the half-time and the last-call reminders share a version.
        first_position=feed.REMINDER_SLOT + list(DueKind).index(due.kind),
    )


def _count_sleepers(record: GameRecord, now: int, report: SweepReport) -> None:
    """Count the past-due players this run leaves owing because they sleep (they time out on waking)."""
    sleepers = len(past_due(record.state, now)) - len(timing_out(record.state, now))
    if sleepers:
        report.timeouts_held_asleep += sleepers
        count("TimeoutsHeldAsleep", sleepers)


def _time_out(ports: SweepPorts, record: GameRecord, now: int, report: SweepReport) -> _Acted | None:
    """The timeout through the players' own move path (retries, request ids, fault handling)."""
    request_id = games.new_request_id()  # this sweep's write, recognisable when its answer is lost
    judged: list[tuple[GameRecord, Applied]] = []  # each attempt's read, and the timeout it wrote

    def judge(current: GameRecord) -> Step | None:
        if _timeout_due(current, now) is None:
            return None  # a move got there first: the caller looks again
        applied = engine.apply(current.state, Timeout(), now=now)
        judged.append((current, applied))
        return Step(applied, due_index.after_sweep(applied.state, current.visibility, now), iso(now))

    try:
        played = games.apply_move(ports, record.game_id, judge, loaded=record, request_id=request_id)
    except AppError:
        # Out of attempts, and the move path's last look failed too: the write may still have landed.
        landed = _landed(ports, record.game_id, request_id, judged)
        if landed is None:
            raise
    else:
        if played.applied is not None and played.previous is not None:
            landed = played.previous, played.applied
        else:
            # Nothing applied by this call, which is also what the move path says of a write whose
            # answer was lost and that a later read found landed: that timeout is told all the same.
            landed = _landed(ports, record.game_id, request_id, judged)
            if landed is None:
                return None  # a move got there first
    before, applied = landed
    due = _timeout_due(before, now)
    assert due is not None  # the judge wrote only because it was
    state = before.state
    report.timeouts_applied += 1
    report.players_timed_out += len(applied.timed_out)
    count("TimeoutsApplied")
    logger.info("timeout applied", extra={"game_id": record.game_id, "timed_out": applied.timed_out})
    version = applied.state.version
    events: list[Event] = []
    for member in state.player_ids:
        for pid in applied.timed_out:
            told = timeout_event(state, pid, member, version=version, occurred_at=iso(now))
            if told is not None:
                events.append(told)
    return _Acted(
        [timeout(state, pid, iso(due.deadline)) for pid in applied.timed_out],
        events,
        first_position=feed.TIMEOUT_SLOT,
        finished=applied.state.phase is Phase.FINISHED,
    )


def _landed(
    ports: SweepPorts, game_id: str, request_id: str, judged: list[tuple[GameRecord, Applied]]
) -> tuple[GameRecord, Applied] | None:
    """The timeout this sweep wrote, when the game read back holds it though no answer said so.

    The move path's last look (app.games.writing): the game, read again, holds this sweep's request
    id. The write that landed is the last one attempted (a later attempt reads first, and stops when
    it finds the id), so it wrote what the judge last decided, on the game it had read.
    """
    if not judged:
        return None  # nothing was written
    try:
        back = ports.games.load_game(game_id)
    except AppError:
        return None
    if back is None or not games.written_by(back, request_id):
        return None
    count("SweepTimeoutAnswersLost")
    logger.warning("a timeout whose answer was lost had landed; telling it", extra={"game_id": game_id})
    return judged[-1]


def _occasion(due: Due) -> str:
    # Two reminders (and under `wait` a third) share a deadline: the point names which one this is.
    return f"{iso(due.deadline)}/{due.kind.value}"


def _record_events(ports: SweepPorts, webhooks: WebhookQueue, acted: _Acted) -> None:
    try:
        feed.record_sweep_events(ports, acted.events, first=acted.first_position, finished=acted.finished)
        if acted.events:
            enqueue_events(ports, webhooks, acted.events)
    except Exception:
        # Like a failed publish: the write committed, so this is logged and counted, not retried.
        logger.exception("sweep events not recorded", extra={"events": [e.id for e in acted.events]})
        count("SweepEventsFailed")


def _deliver(delivery: Delivery, notifications: list[Notification], report: SweepReport) -> None:
    for notification in notifications:
        try:
            if notification.kind is Kind.REMINDER:
                outcome = delivery.send_reminder(notification)
            else:
                outcome = delivery.deliver(notification)
        except Exception:
            # The write committed and the next sweep will not see it due again: a message the outbox refused
            # (queue unreachable) is logged and counted; the other notifications still go.
            logger.exception("notification not delivered", extra={"dedupe_id": notification.dedupe_id})
            count("SweepDeliveryFailed")
            continue
        if notification.kind is Kind.REMINDER:
            if outcome is Outcome.SENT:
                report.reminders_sent += 1
            else:
                report.reminders_held += 1
