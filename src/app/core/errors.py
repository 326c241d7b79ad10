"""Errors of the service layer that are not rule errors: who you are, what exists, what you may do.

They say what went wrong in the game's terms; handlers.problems alone decides how HTTP shows them.
"""

from __future__ import annotations


class AppError(Exception):
    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


class NotAuthenticated(AppError):
    """No credentials, or credentials that name nobody."""


class Forbidden(AppError):
    """The caller is known but may not do this (a private game, a wrong invite code)."""


class InsufficientScope(Forbidden):
    """The token is valid but was not given the scope this request needs (a personal token's)."""

    def __init__(self, scope: str) -> None:
        super().__init__("insufficient_scope", f"this token was not given the scope {scope}")
        self.scope = scope


class NotFound(AppError):
    """No such game or deck."""


class Conflict(AppError):
    """Not possible now, though it might be later (the game kept changing)."""


class Busy(Conflict):
    """The game kept changing under a move for as long as this request could wait; worth a retry soon."""

    def __init__(self) -> None:
        super().__init__("busy_game", "the game kept changing while your move was applied; try again")


class StoreUnavailable(AppError):
    """Storage throttled, timed out or failed: nothing this request could see was applied; retry later."""

    def __init__(self, detail: str = "the game store is busy or unreachable; try again shortly") -> None:
        super().__init__("store_unavailable", detail)


class IdempotencyKeyReused(AppError):
    """An Idempotency-Key already answered a request with a different body."""

    def __init__(self) -> None:
        super().__init__("idempotency_key_reused", "this Idempotency-Key was used with a different body")


class StaleVersion(AppError):
    """The caller asked for a version of the game that is no longer the current one."""

    def __init__(self, current_version: int) -> None:
        super().__init__("stale_version", f"the game is now at version {current_version}")
        self.current_version = current_version


class InvalidInput(AppError):
    """Input that can never be accepted as it is (a push token refused by the platform, a private URL)."""


class RateLimited(AppError):
    """Allowed again after `retry_after` seconds (a game nudged less than an hour ago)."""

    def __init__(self, code: str, detail: str, *, retry_after: int) -> None:
        super().__init__(code, detail)
        self.retry_after = retry_after


class NotConfigured(AppError):
    """This deployment lacks what the request needs; retrying will not help until an operator acts."""


class VersionConflict(Exception):
    """A store's conditional write lost a race: the game item changed since it was read."""

    def __init__(self, current_version: int | None) -> None:
        super().__init__(f"game is now at version {current_version}")
        self.current_version = current_version
