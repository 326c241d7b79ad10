"""Refusals RFC 6749 names: `error` is the protocol's word (invalid_request, invalid_grant, …)."""

from __future__ import annotations

from app.core.errors import AppError


class OAuthRefused(AppError):
    """A request the protocol refuses. `code` is more precise than `error` (what the web client says);
    `redirectable` is False when the redirect URI or the client id itself is at fault, so the refusal
    must be shown to the player and never sent to that URI (no open redirect)."""

    def __init__(
        self,
        error: str,
        detail: str,
        *,
        code: str | None = None,
        redirectable: bool = True,
        revoked_for: str | None = None,
    ) -> None:
        super().__init__(code or error, detail)
        self.error = error
        self.redirectable = redirectable
        # The player whose grant the refusal revoked (a replayed refresh token), for whoever must
        # forget what that grant had opened (app.flows.revoke_credentials); None when nothing was revoked.
        self.revoked_for = revoked_for
