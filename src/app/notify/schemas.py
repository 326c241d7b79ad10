"""Request and response bodies of the notification routes (devices, mutes, nudges)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.core.examples import GAME_ID, PLAYER_ID, STAMP
from app.core.schema_base import Request, Schema, doc
from app.notify.devices.channels import Platform
from app.notify.preferences import HH_MM_PATTERN, time_zone_names

if TYPE_CHECKING:
    # Only named in a signature: the ports (and the game ports they import) stay out of this module's import.
    from app.notify.ports import Device

DEVICE_ID_PATTERN = r"^[A-Za-z0-9_.:-]{1,64}$"


class RegisterDevice(Request):
    # Lax for the enum: JSON has none, so the string is what a client sends.
    platform: Platform = doc(
        "Which push service the token belongs to: apns, apns_sandbox or fcm", "fcm", strict=False
    )
    # Platform tokens are printable ASCII (hex for APNs); anything else could not reach SNS intact.
    push_token: str = doc(
        "The token the phone's push service gave the app", "fcm-token-123", min_length=1, max_length=4096,
        pattern=r"^[!-~]+$",
    )  # fmt: skip


class DeviceOut(Schema):
    device_id: str = doc("The id the client chose for this device", "phone-1")
    platform: Platform = doc("Its push service", "fcm")
    registered_at: str = doc("When the token was last registered", STAMP)


def device_out(device: Device) -> DeviceOut:
    """A push device as its owner sees it (never its endpoint)."""
    return DeviceOut(device_id=device.device_id, platform=device.platform, registered_at=device.registered_at)


class Devices(Schema):
    devices: list[DeviceOut] = doc(
        "The caller's devices", [{"device_id": "phone-1", "platform": "fcm", "registered_at": STAMP}]
    )


class SetMuted(Request):
    muted: bool = doc("true: no notifications; false: notifications again", True)


class MutedOut(Schema):
    muted: bool = doc("Whether notifications are muted now", True)
    game_id: str | None = doc("Set when the mute is for one game", GAME_ID, default=None)


class NudgeOut(Schema):
    game_id: str = doc("The game nudged", GAME_ID)
    nudged: list[str] = doc("The players the game waits on, who were reminded", [PLAYER_ID])
    next_nudge_at: str = doc("When this game can be nudged again", STAMP)
    unreachable: list[str] = doc(
        "Those nudged who have no way to be reached (no address, device or browser for it, or the game "
        "muted): they see it when they open the game",
        [],
        default_factory=list,
    )


# Preferences (`GET`/`PUT /players/me/notifications`): the fields' checks with stable codes are in
# app.notify.preferences, so only the shape is checked here.

_KINDS = "your_turn, reminder, game_over"
_ALL_KINDS = ["your_turn", "reminder", "game_over"]


def _listing_time_zones(schema: dict[str, Any]) -> None:
    # A callable, so the list is read from tzdata when the document is built, never at a cold start.
    schema["enum"] = list(time_zone_names())


# The pattern is the schema's: the service checks HH:MM itself, with a stable code (invalid_quiet_hours).
_HH_MM = {"pattern": HH_MM_PATTERN}


class QuietHoursIn(Request):
    start: str = doc(
        "Local time the quiet hours begin, HH:MM in ASCII digits",
        "22:00",
        max_length=5,
        json_schema_extra=_HH_MM,
    )
    end: str = doc(
        "Local time they end, HH:MM in ASCII digits (earlier than start: past midnight)",
        "08:00",
        max_length=5,
        json_schema_extra=_HH_MM,
    )


class SetPreferences(Request):
    """A partial update: every field left out keeps its value.

    Only quiet_hours and digest take null (none, off): the other fields are typed without it, though left
    out by default, so that a null the API would refuse is not one the schema offers.
    """

    muted: bool = doc("true: no notifications at all; false: as the channels say", False, default=None)
    time_zone: str = doc(
        "A time zone of the tz database by its Area/Location name, or UTC; not the pseudo-zones "
        "(localtime, Factory), Etc/… or the legacy names (US/Eastern, GB): invalid_time_zone otherwise",
        "Europe/Paris",
        default=None,
        max_length=64,
        json_schema_extra=_listing_time_zones,
    )
    quiet_hours: QuietHoursIn | None = doc(
        "Local quiet hours, or null for none: nothing is sent inside them and deadlines move out of them "
        "(invalid_quiet_hours when start equals end or fewer than 8 waking hours are left)",
        {"start": "22:00", "end": "08:00"},
        default=None,
    )
    channels: dict[str, list[str]] = doc(
        f"Per channel (email, web_push, device_push) the kinds it gets, among {_KINDS}; channels left "
        "out keep theirs (invalid_channels otherwise)",
        {"email": ["your_turn", "game_over"]},
        default=None,
        max_length=3,
    )
    digest: int | None = doc(
        "null: no daily digest; else the local hour (0-23) of one daily email listing every game that "
        "waits on you (invalid_digest otherwise)",
        8,
        default=None,
    )
    digest_talk: bool = doc(
        "true (the default): the digest counts each game's table-talk messages you have not read; false: "
        "it leaves table talk out (invalid_digest_talk otherwise)",
        False,
        default=None,
    )


class QuietHoursOut(Schema):
    start: str = doc("Local time the quiet hours begin", "22:00")
    end: str = doc("Local time they end", "08:00")


class ChannelsOut(Schema):
    email: list[str] = doc("What email brings", _ALL_KINDS)
    web_push: list[str] = doc("What the web client's push brings", _ALL_KINDS)
    device_push: list[str] = doc("What the phone apps' push brings", _ALL_KINDS)


class PreferencesOut(Schema):
    muted: bool = doc("Whether every notification is muted", False)
    time_zone: str = doc("The IANA time zone quiet hours, deadlines and the digest hour are read in", "UTC")
    quiet_hours: QuietHoursOut | None = doc("Local quiet hours, or null for none", None)
    channels: ChannelsOut = doc(
        "Per channel the kinds it gets",
        {"email": _ALL_KINDS, "web_push": _ALL_KINDS, "device_push": _ALL_KINDS},
    )
    digest: int | None = doc("The local hour of the daily digest email, or null for none", None)
    digest_talk: bool = doc("Whether the digest counts each game's unread table talk", True)
