"""The base of every API and event model, and of every request body."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Schema(BaseModel):
    # Built on first use, not at import: a cold start then builds only the models its route needs, not
    # the forty-odd every route and event declares (about 50 ms of CPU on each cold start).
    model_config = ConfigDict(defer_build=True)


class Request(Schema):
    # Strict: "12" is not a number and 1 is not a string; a client learns that instead of being guessed.
    model_config = ConfigDict(extra="forbid", strict=True)


def doc(description: str, example: Any, **kwargs: Any) -> Any:
    """A documented field: what it means, and one value it could hold."""
    return Field(description=description, examples=[example], **kwargs)
