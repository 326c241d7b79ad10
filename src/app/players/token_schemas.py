"""Request and response bodies of the personal token routes (`/players/me/personal-tokens`)."""

from __future__ import annotations

from pydantic import Field

from app.core.examples import PLAYER_ID, STAMP
from app.core.request_fields import name_field
from app.core.schema_base import Request, Schema, doc
from app.players.personal_tokens import MAX_PERSONAL_TOKENS
from app.players.ports import PersonalTokenRecord
from app.players.scopes import GrantableScopeName

EXAMPLE_ID = "t_5c1e9a7b3d2f4e60"
_SCOPES = ["games:read", "games:play"]


class CreatePersonalToken(Request):
    name: str = name_field("What you call the script or app that will hold it", "my Discord bot")
    scopes: list[GrantableScopeName] = Field(
        min_length=1,
        max_length=8,
        examples=[_SCOPES],
        description=(
            "What the token may do (docs/tokens.md): any scope but `account:owner`, which only your own "
            "sessions hold"
        ),
    )


class PersonalTokenOut(Schema):
    token_id: str = doc("The token's id (the middle part of the token)", EXAMPLE_ID)
    name: str = doc("What you called it", "my Discord bot")
    scopes: list[str] = doc("What it may do", _SCOPES)
    created_at: str = doc("When you made it", STAMP)
    last_used_at: str | None = doc("When it was last used, to within a minute (null: never)", STAMP)


class PersonalTokenCreated(PersonalTokenOut):
    token: str = doc(
        "Bearer token `p_<player>.t_<token>.<secret>`; shown only in this response",
        f"{PLAYER_ID}.{EXAMPLE_ID}.kq3…",
    )


class PersonalTokenList(Schema):
    personal_tokens: list[PersonalTokenOut] = doc(
        f"Every personal token you hold (at most {MAX_PERSONAL_TOKENS}), oldest first; never a secret",
        [
            {
                "token_id": EXAMPLE_ID,
                "name": "my Discord bot",
                "scopes": _SCOPES,
                "created_at": STAMP,
                "last_used_at": None,
            }
        ],
    )


def personal_token_out(token: PersonalTokenRecord) -> PersonalTokenOut:
    return PersonalTokenOut(
        token_id=token.token_id,
        name=token.name,
        scopes=list(token.scopes),
        created_at=token.created_at,
        last_used_at=token.last_used_at or None,
    )


def personal_token_created(token: PersonalTokenRecord, secret_form: str) -> PersonalTokenCreated:
    return PersonalTokenCreated(**personal_token_out(token).model_dump(), token=secret_form)
