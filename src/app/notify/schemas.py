"""Request and response bodies of the notification routes (devices, mutes, nudges)."""

from __future__ import annotations

from app.core.examples import GAME_ID, PLAYER_ID, STAMP
from app.core.schema_base import Request, Schema, doc
from app.notify.channels import Platform

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
