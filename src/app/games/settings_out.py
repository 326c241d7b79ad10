"""A game's settings as every view of it shows them (app.games.presenters writes them into each answer).

Apart from the rest of the game routes' contract (app.games.schemas, which re-exports it): a view needs
this model, and none of the other answers' classes, on a cold start (issue 36).
"""

from __future__ import annotations

from app.core.schema_base import Schema, doc
from dixit.settings import TableTalk, TimeoutPolicy


class SettingsOut(Schema):
    rules: str = doc("classic or odyssey", "classic")
    decks: list[str] = doc("The decks in play", ["base"])
    max_players: int = doc("Seats", 6)
    target_score: int = doc("The score that ends the game", 30)
    move_timeout_hours: int = doc("How long a player may take over an owed move", 48)
    timeout_policy: TimeoutPolicy = doc(
        "autoplay: a random legal move is played for a silent player (scoring nothing); skip: a silent "
        "player is skipped at the deadline; wait: only reminded",
        "autoplay",
    )
    title: str | None = doc("The title the host gave the game; null if none", None, default=None)
    vacation_days: int = doc("Days of vacation each player may declare over the game", 7)
    table_talk: TableTalk = doc(
        "between_rounds: players may talk except while cards are chosen and votes cast; always; off",
        "between_rounds",
    )
