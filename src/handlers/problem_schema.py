"""The problem+json body as the OpenAPI document describes it (handlers.problems writes the answers)."""

from __future__ import annotations

from app.core.schema_base import Schema, doc


class Problem(Schema):
    """RFC 9457 problem details, with a stable machine-readable `code`."""

    type: str = doc("A URI naming the problem type", "about:blank", default="about:blank")
    title: str = doc("The HTTP status phrase", "Conflict")
    status: int = doc("The HTTP status code", 409)
    detail: str = doc("What went wrong, in words a player can read", "it is not your turn to vote")
    code: str = doc("Stable machine-readable code", "wrong_phase")
    errors: list[dict[str, object]] | None = doc(
        "For malformed input: each invalid field",
        [{"loc": ["body", "clue"], "msg": "too long"}],
        default=None,
    )
    scope: str | None = doc(
        "For insufficient_scope: the scope the token lacks for this route", "games:play", default=None
    )
