"""Request and response bodies of the player routes (the inbox of a player's games is app.games.schemas)."""

from __future__ import annotations

from app.core.examples import PLAYER_ID
from app.core.request_fields import name_field
from app.core.schema_base import Request, Schema, doc


class CreatePlayer(Request):
    name: str = name_field("The name other players see", "Ada")


class PlayerCreated(Schema):
    player_id: str = doc("Your player id", PLAYER_ID)
    name: str = doc("Your name as others see it", "Ada")
    token: str = doc("Bearer token; shown only in this response", "dxt_kq3…")


class PlayerOut(Schema):
    player_id: str = doc("Your player id", PLAYER_ID)
    name: str = doc("Your name as others see it", "Ada")
