"""The one place configuration is read: environment variables, validated once per process."""

from __future__ import annotations

from functools import cache

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class AppSettings(BaseSettings):
    model_config = SettingsConfigDict(frozen=True, extra="ignore")

    table_name: str = Field(default="dixit-games", min_length=3)
    card_bucket: str = ""
    nudge_topic_arn: str = ""
    nudge_after_seconds: int = Field(default=86_400, ge=60)
    image_url_ttl_seconds: int = Field(default=3_600, ge=60, le=604_800)
    idempotency_ttl_seconds: int = Field(default=86_400, ge=60)
    max_body_bytes: int = Field(default=16_384, ge=1_024)
    move_attempts: int = Field(default=4, ge=1, le=10)


@cache
def get_settings() -> AppSettings:
    return AppSettings()
