"""The round history (`GET /games/{id}/rounds`): one item per scored round, written off the move path.

A scoring vote (or the timeout that closes a vote) is one conditional write of the game item, like
every other move: writing the round's item with it would make it a transaction, which DynamoDB bills
twice. The table's stream carries the game item's old and new images to the consumer (app.flows
.game_change), and `record` finds the scored round in them and puts its item, a moment after the move.
The put is unconditional and the same record always gives the same item, so a batch the stream
delivers twice rewrites it with the same bytes.

The new state's `last_round` is the full reveal, except when the round ended with players leaving the
table: the state then keeps only the seated players' part (it names players by seat), or nothing if
the storyteller left. For that write alone the game item also carries the full reveal
(`GameWrite.carried_round`), which `carried_reveal` reads back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from app.games.state_codec import SCORED_ROUND, round_from_json
from dixit.state import GameState, RoundResult


class RoundWriter(Protocol):
    def put_round(self, game_id: str, result: RoundResult) -> None:
        """Write the round's history item, over the same one if it is there already."""
        ...


def carried_reveal(
    old_image: Mapping[str, Any] | None, new_image: Mapping[str, Any] | None
) -> RoundResult | None:
    """The full reveal the write behind this change of a game item carried (deserialized images), if any."""
    reveal = (new_image or {}).get(SCORED_ROUND)
    # Only the write that scored it carries it: an update that keeps the attribute (the sweep's) does not.
    if isinstance(reveal, str) and reveal != (old_image or {}).get(SCORED_ROUND):
        return round_from_json(reveal)
    return None


def scored_round(
    old: GameState | None, new: GameState | None, reveal: RoundResult | None
) -> RoundResult | None:
    """The round this change of a game item scored, if it scored one: from the states decoded from the
    stream's images, and the reveal the new item carried (`carried_reveal`)."""
    if new is None:
        return None  # a deleted item scores nothing
    if reveal is not None:
        return reveal
    before = None if old is None or old.last_round is None else old.last_round.number
    # Round numbers only grow, one per scored round: a role passed or a seat renamed keeps the number.
    if new.last_round is not None and new.last_round.number != before:
        return new.last_round
    return None


def record(
    rounds: RoundWriter, old: GameState | None, new: GameState | None, reveal: RoundResult | None
) -> int:
    """Write the history item of the round this change scored; how many it wrote (0 or 1).

    A failure raises: the stream record fails, and is delivered again."""
    result = scored_round(old, new, reveal)
    if result is None or new is None:
        return 0
    rounds.put_round(new.game_id, result)
    return 1
