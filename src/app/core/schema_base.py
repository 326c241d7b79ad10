"""The base of every API and event model."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Schema(BaseModel):
    # Built on first use, not at import: a cold start then builds only the models its route needs, not
    # the forty-odd every route and event declares (about 50 ms of CPU on each cold start).
    model_config = ConfigDict(defer_build=True)
