"""Request and response bodies of the notification routes (devices, mutes, nudges)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from app.notifier import Platform
from app.schemas import Request

DEVICE_ID_PATTERN = r"^[A-Za-z0-9_.:-]{1,64}$"


class RegisterDevice(Request):
    # Lax for the enum: JSON has none, so the string is what a client sends.
    platform: Platform = Field(strict=False, examples=["fcm"])
    # Platform tokens are printable ASCII (hex for APNs); anything else could not reach SNS intact.
    push_token: str = Field(min_length=1, max_length=4096, pattern=r"^[!-~]+$", examples=["fcm-token-123"])


class DeviceOut(BaseModel):
    device_id: str
    platform: Platform
    registered_at: str


class Devices(BaseModel):
    devices: list[DeviceOut]


class SetMuted(Request):
    muted: bool


class MutedOut(BaseModel):
    muted: bool
    game_id: str | None = Field(default=None, description="Set when the mute is for one game")


class NudgeOut(BaseModel):
    game_id: str
    nudged: list[str] = Field(description="The players the game waits on, who were reminded")
    next_nudge_at: str = Field(description="When this game can be nudged again")
