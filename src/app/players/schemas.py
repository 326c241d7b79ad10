"""Request and response bodies of the player routes (the inbox of a player's games is app.games.schemas)."""

from __future__ import annotations

from app.core.examples import PLAYER_ID, SESSION_ID, STAMP
from app.core.records import PlayerRecord
from app.core.request_fields import name_field
from app.core.schema_base import Request, Schema, doc
from app.players.accounts import DEFAULT_DEVICE
from app.players.ports import SessionRecord

EMAIL = "ada@example.com"


class CreatePlayer(Request):
    name: str = name_field("The name other players see", "Ada")
    device: str = name_field(
        f"A label for the device this token lives on, shown in your sessions (default {DEFAULT_DEVICE!r})",
        "Ada's phone",
        default=DEFAULT_DEVICE,
    )


class RenamePlayer(Request):
    name: str = name_field("Your new name, for the games you join or create from now on", "Ada L.")


class PlayerCreated(Schema):
    player_id: str = doc("Your player id", PLAYER_ID)
    name: str = doc("Your name as others see it", "Ada")
    token: str = doc(
        "Bearer token `p_<player>.s_<session>.<secret>`; shown only in this response",
        f"{PLAYER_ID}.{SESSION_ID}.kq3…",
    )


class PlayerOut(Schema):
    player_id: str = doc("Your player id", PLAYER_ID)
    name: str = doc("Your name as others see it (in new games; started ones keep the old)", "Ada")
    session_id: str = doc(
        "The session this token belongs to (`s_legacy`: a token from before sessions), or the id of the "
        "personal token sent (`t_…`)",
        SESSION_ID,
    )
    email: str | None = doc(
        "Your address (only you see it): the confirmed one, else the one awaiting its code, else null",
        EMAIL,
        default=None,
    )
    email_verified: bool = doc(
        "Whether `email` is confirmed: then you can sign in with it on another device (POST /sessions)",
        True,
        default=False,
    )
    pending_email: str | None = doc(
        "An address awaiting its confirmation code (POST /players/me/email/verify), else null",
        "ada@new.example.com",
        default=None,
    )


def player_out(player: PlayerRecord, session_id: str) -> PlayerOut:
    """You, as only you see yourself (your address included)."""
    return PlayerOut(
        player_id=player.player_id,
        name=player.name,
        session_id=session_id,
        email=player.email or player.pending_email or None,
        email_verified=bool(player.email),
        pending_email=player.pending_email or None,
    )


class SessionOut(Schema):
    session_id: str = doc("The session's id (`s_legacy`: a token from before sessions)", SESSION_ID)
    device: str = doc("The label given when the session was opened", "Ada's phone")
    created_at: str = doc("When the session was opened", STAMP)
    last_used_at: str = doc("When its token was last used, to within an hour", STAMP)
    current: bool = doc("Whether this is the session of the token you sent", True)


class SessionList(Schema):
    sessions: list[SessionOut] = doc(
        "Every device signed in as you, oldest first; never a token or its hash",
        [
            {
                "session_id": SESSION_ID,
                "device": "Ada's phone",
                "created_at": STAMP,
                "last_used_at": STAMP,
                "current": True,
            }
        ],
    )


def session_out(session: SessionRecord, current_id: str) -> SessionOut:
    return SessionOut(
        session_id=session.session_id,
        device=session.device,
        created_at=session.created_at,
        last_used_at=session.last_used_at,
        current=session.session_id == current_id,
    )
