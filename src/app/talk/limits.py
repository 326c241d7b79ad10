"""How fast one player may talk: per game per minute (no one floods a table) and per day (no one floods
every table they sit at). Counted like the other per-client rates (app.core.rates): one conditional write
each, on the fixed-window counter in the table; a refusal is 429 with Retry-After to the window's end."""

from __future__ import annotations

import hashlib

from app.core.rates import Rate

MESSAGES_PER_GAME_MINUTE = Rate(
    "talk-game-minute", 10, 60, "too_many_messages", "you wrote too many messages at this table this minute"
)
REACTIONS_PER_GAME_MINUTE = Rate(
    "react-game-minute", 30, 60, "too_many_reactions", "you reacted too often at this table this minute"
)
REPORTS_PER_DAY = Rate(
    "talk-reports-day", 20, 86_400, "too_many_reports", "you reported too many messages today"
)
MESSAGES_PER_DAY = Rate("talk-day", 300, 86_400, "too_many_messages", "you wrote too many messages today")


def game_key(player_id: str, game_id: str) -> str:
    # Hashed like every other counter key: the counter item never names the player or the game.
    return hashlib.sha256(f"talk\x00{player_id}\x00{game_id}".encode()).hexdigest()


def player_key(player_id: str) -> str:
    return hashlib.sha256(f"talk\x00{player_id}".encode()).hexdigest()
