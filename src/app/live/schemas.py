"""What `POST /live/tickets` answers."""

from __future__ import annotations

from pydantic import BaseModel, Field


class LiveTicketOut(BaseModel):
    ticket: str = Field(
        description="Single use: open the socket at `url` with `?ticket=` within `expires_in` seconds",
        examples=["lt_q3Zb0Jx2XhC9vKf1yWm6Tn8pRs4uLa7dEo5gHi0jKc"],
    )
    url: str = Field(
        description="The live channel's WebSocket URL (wss:// deployed, ws://127.0.0.1:3001 under make run)",
        examples=["wss://abc123.execute-api.eu-west-1.amazonaws.com/prod"],
    )
    expires_in: int = Field(description="Seconds the ticket stays good for", examples=[30])
