"""When a player's daily digest is due: their local hour, turned into the UTC hour the job runs at.

The digest index files a player under the UTC hour of the *next* time their local hour comes round, so a
change of offset (summer time) moves them when the job next visits them. Shards spread each hour over
DIGEST_SHARDS keys: no key is shared by every player. Pure: the caller passes the time.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from app.notify.email.ports import DigestEntry

DIGEST_SHARDS = 4  # changing it orphans entries: the job queries DIGEST#<hour>#0..DIGEST_SHARDS-1


def digest_shard(player_id: str) -> int:
    return int.from_bytes(hashlib.sha256(player_id.encode()).digest()[:4], "big") % DIGEST_SHARDS


def next_due(time_zone: str, hour: int, after: datetime) -> datetime:
    """The first instant at or after `after` (UTC) when the local time in `time_zone` is `hour`:00."""
    zone = ZoneInfo(time_zone)
    local = after.astimezone(zone)
    for days in range(3):
        day = local.date() + timedelta(days=days)
        # A local hour a clock change skips is taken at its UTC equivalent (zoneinfo folds it forward).
        moment = datetime(day.year, day.month, day.day, hour, tzinfo=zone).astimezone(UTC)
        if moment >= after.replace(minute=0, second=0, microsecond=0):
            return moment
    raise AssertionError("an hour comes round within three days")  # pragma: no cover


def entry_for(player_id: str, time_zone: str, hour: int, after: datetime) -> DigestEntry:
    """The index entry for a player wanting their digest at local `hour`, next due after `after`."""
    return DigestEntry(player_id, time_zone, hour, next_due(time_zone, hour, after).hour)


def local_day(time_zone: str, at: datetime) -> date:
    """The player's calendar day at `at`: a digest goes once per local day."""
    return at.astimezone(ZoneInfo(time_zone)).date()


def due_now(entry: DigestEntry, at: datetime) -> bool:
    """Whether `at` (the job's hour, UTC) is the entry's local hour: an entry the offset moved is not."""
    return at.astimezone(ZoneInfo(entry.time_zone)).hour == entry.hour
