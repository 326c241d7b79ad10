"""A player's notification preferences: mutes, time zone, quiet hours, the kinds each channel gets, digest.

The model every channel consults (`NotificationPreferences.wants`) and the parsing of the API's partial
update (`updated`), which raises InvalidInput with a stable code for each field that cannot be kept.
The API shape (`GET`/`PUT /players/me/notifications`) is `to_body`'s.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import field, replace
from enum import StrEnum
from functools import lru_cache
from importlib.resources import files

from app.core.errors import InvalidInput
from app.notify.messages import Kind
from dixit.lean_dataclass import dataclass
from dixit.quiet_hours import InvalidQuietHours, QuietHours, SeatQuiet, UnknownTimeZone, zone


class Channel(StrEnum):
    EMAIL = "email"
    WEB_PUSH = "web_push"
    DEVICE_PUSH = "device_push"  # the native apps' devices, through SNS


class UnsubscribeScope(StrEnum):
    """What a one-click unsubscribe link stops (app.notify.email.unsubscribe)."""

    EMAIL = "email"  # every notification mail: your turn, reminders, game over
    DIGEST = "digest"


# The kinds a player chooses per channel, in the order the API lists them.
CHOOSABLE_KINDS: tuple[Kind, ...] = (Kind.YOUR_TURN, Kind.REMINDER, Kind.GAME_OVER)
# A timeout is news about a turn: it goes wherever the player wants to hear that it is their turn. A
# rematch is the game over's follow-up: it goes wherever the player wants to hear how their games end
# (so the API's kinds, and every stored choice, stay as they are).
_FOLLOWS = {Kind.TIMEOUT: Kind.YOUR_TURN, Kind.REMATCH: Kind.GAME_OVER}
DEFAULT_TIME_ZONE = "UTC"
# The tz database's geographic areas: a time zone a player chooses is one of their Area/Location names, or
# UTC. Left out: the pseudo-zones (`localtime`, `Factory`, `posixrules`), `Etc/…` (fixed offsets whose sign
# reads backwards: Etc/GMT+5 is five hours behind), and the legacy names (`US/Eastern`, `GB`, `EST5EDT`…),
# each of which a player finds under its area.
TIME_ZONE_AREAS = (
    "Africa", "America", "Antarctica", "Arctic", "Asia",
    "Atlantic", "Australia", "Europe", "Indian", "Pacific",
)  # fmt: skip
# Quiet hours' times: two ASCII digits, a colon, two ASCII digits (a time of day; other digits refused).
HH_MM_PATTERN = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"
_HH_MM = re.compile(HH_MM_PATTERN)


@lru_cache(maxsize=1)
def time_zone_names() -> tuple[str, ...]:
    """Every time zone a player may choose, sorted: from the tz database the tzdata package ships (not the
    machine's, so the schema's list is the same wherever it is built)."""
    listed = files("tzdata").joinpath("zones").read_text(encoding="utf-8").split()
    return tuple(sorted(n for n in listed if n == "UTC" or n.partition("/")[0] in TIME_ZONE_AREAS))


def all_channels() -> dict[Channel, frozenset[Kind]]:
    return {channel: frozenset(CHOOSABLE_KINDS) for channel in Channel}


@dataclass(frozen=True, slots=True)
class NotificationPreferences:
    muted: bool = False
    muted_games: frozenset[str] = frozenset()
    time_zone: str = DEFAULT_TIME_ZONE
    quiet_hours: QuietHours | None = None
    # Every channel is listed; one the player emptied gets nothing.
    channels: Mapping[Channel, frozenset[Kind]] = field(default_factory=all_channels, hash=False)
    digest_hour: int | None = None  # local hour of the daily digest email; None: no digest
    # Whether the digest counts each game's unread table talk (docs/table-talk.md); on unless turned off.
    digest_talk: bool = True
    # Per unsubscribe scope, how many times the player turned it back on: a link binds the generation it
    # was mailed under, so an old link cannot stop again what the player chose to hear (missing: 0).
    link_generations: Mapping[UnsubscribeScope, int] = field(default_factory=dict, hash=False)

    def mutes(self, game_id: str) -> bool:
        return self.muted or game_id in self.muted_games

    def wants(self, channel: Channel, kind: Kind, game_id: str) -> bool:
        """Whether `kind` about `game_id` may go to `channel` (quiet hours aside: delivery holds those)."""
        if self.mutes(game_id):
            return False
        return _FOLLOWS.get(kind, kind) in self.channels.get(channel, frozenset())

    def receives(self, scope: UnsubscribeScope) -> bool:
        """Whether what an unsubscribe link of `scope` stops is on (mutes aside)."""
        if scope is UnsubscribeScope.DIGEST:
            return self.digest_hour is not None
        return bool(self.channels.get(Channel.EMAIL))

    def link_generation(self, scope: UnsubscribeScope) -> int:
        return self.link_generations.get(scope, 0)

    @property
    def seat_quiet(self) -> SeatQuiet | None:
        """What the rules keep on each of the player's seats to shift deadlines; None without quiet hours."""
        return None if self.quiet_hours is None else SeatQuiet(self.time_zone, self.quiet_hours)


# Parsing the API's partial update


def check_time_zone(value: object) -> str:
    if not isinstance(value, str):
        raise InvalidInput("invalid_time_zone", "time_zone must be an IANA name such as Europe/Paris")
    try:
        if value not in time_zone_names():
            raise UnknownTimeZone(value)
        zone(value)
    except UnknownTimeZone:
        raise InvalidInput(
            "invalid_time_zone", f"{value[:64]!r} is not a time zone of the tz database (e.g. Europe/Paris)"
        ) from None
    return value


def parse_quiet_hours(value: object) -> QuietHours | None:
    if value is None:
        return None
    if not isinstance(value, Mapping) or set(value) != {"start", "end"}:
        raise InvalidInput(
            "invalid_quiet_hours", 'quiet_hours must be null or {"start": "HH:MM", "end": "HH:MM"}'
        )
    start, end = value["start"], value["end"]
    if not isinstance(start, str) or not isinstance(end, str):
        raise InvalidInput("invalid_quiet_hours", "quiet_hours start and end must be times as HH:MM")
    for text in (start, end):
        if not _HH_MM.fullmatch(text):
            raise InvalidInput(
                "invalid_quiet_hours", f"{text[:16]!r} is not a time of day as HH:MM (00:00-23:59)"
            )
    try:
        return QuietHours.parse(start, end)
    except InvalidQuietHours as error:
        raise InvalidInput("invalid_quiet_hours", str(error)) from None


def parse_channels(
    value: object, current: Mapping[Channel, frozenset[Kind]]
) -> dict[Channel, frozenset[Kind]]:
    """The channels named in `value` replaced, the others kept (a partial update, like the rest)."""
    names = [c.value for c in Channel]
    if not isinstance(value, Mapping):
        raise InvalidInput("invalid_channels", f"channels must be an object with keys among {names}")
    kinds = [k.value for k in CHOOSABLE_KINDS]
    merged = dict(current)
    for name, chosen in value.items():
        if name not in names:
            raise InvalidInput("invalid_channels", f"unknown channel {str(name)[:32]!r}: use {names}")
        if not isinstance(chosen, list) or not all(isinstance(k, str) and k in kinds for k in chosen):
            raise InvalidInput("invalid_channels", f"channels.{name} must be a list of kinds among {kinds}")
        if len(set(chosen)) != len(chosen):
            raise InvalidInput("invalid_channels", f"channels.{name} lists a kind twice")
        merged[Channel(name)] = frozenset(Kind(k) for k in chosen)
    return merged


def parse_digest(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 23:
        raise InvalidInput("invalid_digest", "digest must be null (off) or a local hour 0-23")
    return value


def updated(current: NotificationPreferences, changes: Mapping[str, object]) -> NotificationPreferences:
    """`current` with the fields `changes` names (the others keep their value); InvalidInput if any is bad."""
    found = current
    if "muted" in changes:
        muted = changes["muted"]
        if not isinstance(muted, bool):
            raise InvalidInput("invalid_muted", "muted must be true or false")
        found = replace(found, muted=muted)
    if "time_zone" in changes:
        found = replace(found, time_zone=check_time_zone(changes["time_zone"]))
    if "quiet_hours" in changes:
        found = replace(found, quiet_hours=parse_quiet_hours(changes["quiet_hours"]))
    if "channels" in changes:
        found = replace(found, channels=parse_channels(changes["channels"], found.channels))
    if "digest" in changes:
        found = replace(found, digest_hour=parse_digest(changes["digest"]))
    if "digest_talk" in changes:
        digest_talk = changes["digest_talk"]
        if not isinstance(digest_talk, bool):
            raise InvalidInput("invalid_digest_talk", "digest_talk must be true or false")
        found = replace(found, digest_talk=digest_talk)
    return _links_renewed(current, found)


def _links_renewed(
    current: NotificationPreferences, found: NotificationPreferences
) -> NotificationPreferences:
    """`found`, with the link generation of each scope it turns back on moved on (old links go stale)."""
    back_on = [s for s in UnsubscribeScope if found.receives(s) and not current.receives(s)]
    if not back_on:
        return found
    generations = dict(found.link_generations)
    for scope in back_on:
        generations[scope] = found.link_generation(scope) + 1
    return replace(found, link_generations=generations)


def to_body(preferences: NotificationPreferences) -> dict[str, object]:
    """The API shape of `GET`/`PUT /players/me/notifications`."""
    hours = preferences.quiet_hours
    return {
        "muted": preferences.muted,
        "time_zone": preferences.time_zone,
        "quiet_hours": None if hours is None else {"start": hours.start_text, "end": hours.end_text},
        "channels": {
            channel.value: [k.value for k in CHOOSABLE_KINDS if k in preferences.channels.get(channel, ())]
            for channel in Channel
        },
        "digest": preferences.digest_hour,
        "digest_talk": preferences.digest_talk,
    }
