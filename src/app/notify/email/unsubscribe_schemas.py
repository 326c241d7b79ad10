"""The answer of the one-click unsubscribe routes (`/notifications/unsubscribe`)."""

from __future__ import annotations

from app.core.schema_base import Schema, doc

TOKEN_PATTERN = r"^[A-Za-z0-9_-]{1,200}\.[A-Za-z0-9_-]{20,64}$"  # noqa: S105 (a pattern, not a secret)


class UnsubscribeOut(Schema):
    scope: str = doc("What the link stops: email (every notification mail) or digest", "email")
    unsubscribed: bool = doc("True once the POST stopped it; false on a GET, which changes nothing", True)
    detail: str = doc(
        "What happened, or what the POST would do", "You will get no more email about your games."
    )
