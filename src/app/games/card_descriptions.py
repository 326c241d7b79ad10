"""The descriptions of a game's custom cards: the alt text of every custom card a game view shows.

Official cards' descriptions ship with the code (app.decks.descriptions). A custom card's is its owner's,
kept on the deck's item, so a view of a game with custom decks needs those items. The design, by cost:
- Not a read per card, nor per deck: the adapter reads every custom deck of the game in one BatchGetItem,
  of the descriptions alone.
- Not a read per view: a deck's descriptions never change once it is created (app.decks.ports), so the
  adapter keeps them for its life, and a warm environment reads each deck once.
- Not copied into the game item: up to 200 descriptions of 800 bytes a deck would make every move, which
  writes the whole item, cost many write units where it costs one.
A game with official decks only reads nothing more, and never builds the deck adapter.
"""

from __future__ import annotations

from collections.abc import Mapping

from app.core.errors import StoreUnavailable
from app.core.records import GameRecord
from app.core.telemetry import logger
from app.games.ports import Described


def card_descriptions(services: Described, record: GameRecord) -> Mapping[str, str]:
    """Card id -> its owner's description, for the custom decks `record` is played with."""
    custom = record.state.settings.custom_decks
    if not custom:
        return {}
    try:
        return services.decks.descriptions_of([deck_id for deck_id, _ in custom])
    except StoreUnavailable:
        # The view (perhaps the answer to a move that has landed) still goes out, with neutral alt texts;
        # nothing is kept, so the next view reads again.
        logger.warning("custom card descriptions unread", extra={"game_id": record.game_id})
        return {}
