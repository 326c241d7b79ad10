"""The stalled-turn sweep: nudge whoever a game has waited on for too long, then wait again."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime

from app.services import Services
from app.telemetry import count, logger
from dixit.views import waiting_for

SWEEP_LIMIT = 100


@dataclass(frozen=True, slots=True)
class SweepReport:
    swept_at: str
    games_due: int
    nudges_sent: int
    games_postponed: int

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def sweep(services: Services, now: datetime, limit: int = SWEEP_LIMIT) -> SweepReport:
    now_iso = now.isoformat(timespec="seconds")
    next_due = services.nudge_deadline(now)
    due = services.store.due_games(now_iso, limit)
    sent = postponed = 0
    for record in due:
        for player_id in waiting_for(record.state):
            published = services.notifier.nudge(
                game_id=record.game_id,
                player_id=player_id,
                phase=record.state.phase.value,
                waiting_since=record.updated_at,
            )
            sent += published
            if not published:
                logger.info(
                    "no nudge topic configured", extra={"game_id": record.game_id, "player_id": player_id}
                )
        # Conditional on the version: if a move landed meanwhile it already set a fresh deadline.
        postponed += services.store.postpone_nudge(record.game_id, version=record.version, due_at=next_due)
    count("NudgesSent", sent)
    return SweepReport(now_iso, len(due), sent, postponed)
