"""Reading and changing one's notification preferences, and keeping one's seats' quiet hours in step.

The rules shift deadlines by the quiet hours each seat carries (dixit.quiet_hours); a seat gets them when
the player takes it (`seat_quiet_of`, asked by the join and create routes) and again here whenever the
player changes their time zone or quiet hours, in every active game. A refresh that fails half way is
finished by sending the same request again: unchanged seats are left alone, so a retry writes only the
games still behind.
"""

from __future__ import annotations

from collections.abc import Mapping

from app.core.errors import NotFound, StoreUnavailable
from app.core.records import GameRecord, PlayerRecord
from app.core.telemetry import count, logger
from app.games import play as games
from app.games.play import ATTEMPT_RESERVE, Step
from app.games.ports import Moving
from app.notify.email import digest
from app.notify.ports import Notifications, Preferring
from app.notify.preferences import NotificationPreferences, updated
from dixit.deadlines import next_due
from dixit.engine import Applied
from dixit.quiet_hours import SeatQuiet
from dixit.seat_quiet import with_seat_quiet
from dixit.state import Phase

# Fields whose change reaches the rules: the others are delivery's alone.
_SEAT_FIELDS = ("time_zone", "quiet_hours")


def show(services: Notifications, player: PlayerRecord) -> NotificationPreferences:
    return services.notifications.preferences(player.player_id)


def change(
    services: Preferring, player: PlayerRecord, changes: Mapping[str, object]
) -> NotificationPreferences:
    """Apply a partial update (InvalidInput, and nothing saved, if any field is bad), then the seats."""
    current = services.notifications.preferences(player.player_id)
    found = updated(current, changes)
    if found != current:
        services.notifications.save_preferences(player.player_id, found)
        digest.preferences_changed(services, player.player_id, current, found)  # its index, by hour
    if any(name in changes for name in _SEAT_FIELDS):
        refresh_seats(services, player.player_id, found.seat_quiet)
    return found


def seat_quiet_of(services: Notifications, player_id: str) -> SeatQuiet | None:
    """What a seat the player takes now must carry (None: no quiet hours)."""
    return services.notifications.preferences(player_id).seat_quiet


def refresh_seats(services: Preferring, player_id: str, quiet: SeatQuiet | None) -> int:
    """Give the player's seat in each of their active games `quiet`; how many games changed."""
    changed = 0
    for membership in services.inbox.active_memberships(player_id):
        if services.deadline.remaining() < ATTEMPT_RESERVE:
            # Many games: what is done stays done, and the same request again finishes the rest.
            raise StoreUnavailable("updating your games takes longer: send the same request again")
        if _refresh(services, membership.game_id, player_id, quiet):
            changed += 1
    if changed:
        count("SeatQuietRefreshed", changed)
        logger.info("quiet hours refreshed on seats", extra={"games": changed})
    return changed


def _refresh(services: Moving, game_id: str, player_id: str, quiet: SeatQuiet | None) -> bool:
    def judge(current: GameRecord) -> Step | None:
        if current.state.phase is Phase.FINISHED:
            return None
        new = with_seat_quiet(current.state, player_id, quiet)
        if new is None:
            return None
        # The deadline may come sooner now (quiet hours dropped): the due entry must not wait past it.
        due_at = current.due_at
        upcoming = next_due(new, after=services.now_epoch())
        if upcoming is not None and (due_at is None or upcoming.at < due_at):
            due_at = upcoming.at
        return Step(Applied(new), due_at)

    try:
        played = games.apply_move(services, game_id, judge)
    except NotFound:
        return False  # gone since the inbox named it
    return played.applied is not None
