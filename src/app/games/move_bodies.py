"""The bodies of the move routes (join, clue, submit, vote, vacation, and the host's moves on a player).

Apart from the rest of the game routes' contract (app.games.schemas, which re-exports them) because a move
validates one of these and nothing else: the direct lane (handlers.hot_routes) imports this module alone,
and a cold start does not build the classes of every answer it never validates (issue 36).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator, Field, Strict

from app.core.examples import CARD_ID, OTHER_ID
from app.core.request_fields import TEXT_RULE, CardId, text_schema, whole_number
from app.core.schema_base import Request, doc
from dixit.limits import MAX_CLUE_BYTES, MAX_CLUE_LENGTH, MAX_VACATION_DAYS


class JoinGame(Request):
    invite_code: str | None = doc("Required to join a private game", "Zx8_q1", default=None, max_length=64)


class GiveClue(Request):
    card_id: CardId = doc("A card from your hand", CARD_ID)
    clue: str = Field(
        min_length=1,
        max_length=MAX_CLUE_LENGTH,
        json_schema_extra=text_schema(),
        examples=["the last door"],
        description=(
            f"At most {MAX_CLUE_BYTES} bytes in UTF-8 and {MAX_CLUE_LENGTH} characters once normalised "
            f"(clue_too_long). {TEXT_RULE}"
        ),
    )


class ChooseCards(Request):
    card_ids: list[CardId] = Field(
        min_length=1,
        max_length=12,
        examples=[["base-042"]],
        description="The cards: from your hand to submit, from the table to vote; each at most once",
        json_schema_extra={"uniqueItems": True},
    )


class TakeVacation(Request):
    days: Annotated[int, Field(ge=1, le=MAX_VACATION_DAYS), Strict(), BeforeValidator(whole_number)] = Field(
        examples=[3],
        description="Days away from now: your deadlines stop meanwhile (counted against the game's "
        "vacation_days)",
    )


class NamePlayer(Request):
    player_id: str = doc("The seated player it is about", OTHER_ID, max_length=64)
