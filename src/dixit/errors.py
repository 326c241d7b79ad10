"""Typed rule errors, each with a stable machine-readable code.

`InvalidMoveError` means the input can never be right (a malformed card id, a blank clue, the wrong number
of cards); `IllegalMoveError` means the move is well formed but not allowed now (wrong phase, not your
role, a card you do not hold). Clients fix the first by changing the request and the second by waiting or
choosing differently, so they map to different HTTP statuses.
"""

from __future__ import annotations


class DixitError(Exception):
    """Base of every rule error; `code` is part of the public contract."""

    code: str = "dixit_error"

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


class InvalidMoveError(DixitError):
    """The move is malformed: no game state could make it legal."""


class IllegalMoveError(DixitError):
    """The move is well formed but not legal in the current state."""
