"""What `POST /live/tickets` answers."""

from __future__ import annotations

from pydantic import BaseModel, Field


class LiveTicketOut(BaseModel):
    ticket: str = Field(
        description="Single use: open the socket at `url` with `?ticket=` within `expires_in`"
    )
    url: str = Field(description="The live channel's WebSocket URL (wss:// when deployed)")
    expires_in: int = Field(description="Seconds the ticket stays good for")
