"""The forms of the ids a bearer token names after the player: a session's, a personal token's, an app
grant's.

Apart from their modules (app.players.personal_tokens, app.players.app_tokens) so that telling a token's
kind from its id needs neither: a request signed in with a session, most of them, imports neither
module, nor the rates and scopes they check (issue 36, a move's cold start).
"""

from __future__ import annotations

import re

from app.players.ports import LEGACY_SESSION

_SESSION_ID = re.compile(r"^s_[0-9a-f]{16}$")
_TOKEN_ID = re.compile(r"^t_[0-9a-f]{16}$")
_GRANT_ID = re.compile(r"^a_[0-9a-f]{16}$")


def is_session_id(session_id: str) -> bool:
    """A session's id (s_ and 16 hex digits), or the one session of a token from before sessions."""
    return session_id == LEGACY_SESSION or bool(_SESSION_ID.fullmatch(session_id))


def is_token_id(token_id: str) -> bool:
    """A personal token's id (t_ and 16 hex digits)."""
    return bool(_TOKEN_ID.fullmatch(token_id))


def is_grant_id(grant_id: str) -> bool:
    """An app grant's id (a_ and 16 hex digits)."""
    return bool(_GRANT_ID.fullmatch(grant_id))
