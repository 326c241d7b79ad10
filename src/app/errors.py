"""Errors of the service layer that are not rule errors: who you are, what exists, what you may do."""

from __future__ import annotations


class AppError(Exception):
    status: int = 500
    title: str = "Internal Server Error"

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


class BadRequest(AppError):
    status, title = 400, "Bad Request"


class Unauthorized(AppError):
    status, title = 401, "Unauthorized"


class Forbidden(AppError):
    status, title = 403, "Forbidden"


class NotFound(AppError):
    status, title = 404, "Not Found"


class Conflict(AppError):
    status, title = 409, "Conflict"


class PreconditionFailed(AppError):
    status, title = 412, "Precondition Failed"


class PayloadTooLarge(AppError):
    status, title = 413, "Payload Too Large"


class VersionConflict(Exception):
    """The game item changed since it was read: the conditional write lost a race."""

    def __init__(self, current_version: int | None) -> None:
        super().__init__(f"game is now at version {current_version}")
        self.current_version = current_version
