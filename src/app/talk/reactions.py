"""Reactions at a game's table: one of a small fixed set (dixit.table_talk.REACTIONS), one per player per
target, a revealed round ("round-3") or a message. Held to the same window as talk (a reaction to a
message while votes are cast could point at a card as well as words), and counted per table per minute.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import field

from app.core import rates
from app.core.errors import Forbidden, NotFound
from app.core.records import PlayerRecord
from app.games.reading import load_game, visible_game
from app.talk import limits
from app.talk.messages import MESSAGE_ID
from app.talk.ports import Talking
from app.talk.records import ReactionRecord
from dixit.lean_dataclass import dataclass
from dixit.state import GameState, Phase
from dixit.table_talk import check_reaction, check_round_target, check_talk, revealed_round_of


def _check_target(ports: Talking, state: GameState, target: str) -> None:
    number = revealed_round_of(target)
    if number is not None:
        last = state.last_round
        if state.phase is Phase.FINISHED and (last is None or number > last.number):
            # Not "not revealed yet" (409, come back later): a finished game plays no more rounds.
            raise _no_target(target)
        check_round_target(state, number)
        return
    message = ports.talk.get_message(state.game_id, target) if MESSAGE_ID.fullmatch(target) else None
    # A message the host hid is read by nobody any more: nothing to react to.
    if message is None or message.hidden_by_host:
        raise _no_target(target)


def _no_target(target: str) -> NotFound:
    return NotFound("reaction_target_not_found", f"there is no revealed round or message {target!r} here")


def _seated(ports: Talking, player: PlayerRecord, game_id: str) -> GameState:
    state = load_game(ports, game_id).state
    if state.player(player.player_id) is None:
        raise Forbidden("not_a_member", "only the game's players react at its table")
    check_talk(state.settings.table_talk, state.phase)
    return state


def react(ports: Talking, player: PlayerRecord, game_id: str, target: str, reaction: str) -> ReactionRecord:
    """Set the player's reaction to the target (replacing theirs)."""
    state = _seated(ports, player, game_id)
    chosen = check_reaction(reaction)
    _check_target(ports, state, target)
    rates.claim(ports, limits.REACTIONS_PER_GAME_MINUTE, limits.game_key(player.player_id, game_id))
    record = ReactionRecord(game_id, target, player.player_id, chosen)
    ports.talk.put_reaction(record)
    return record


def unreact(ports: Talking, player: PlayerRecord, game_id: str, target: str) -> bool:
    """Take the player's reaction to the target back (nothing to take back is fine: the same end).
    True when there was one."""
    _seated(ports, player, game_id)
    return ports.talk.remove_reaction(game_id, target, player.player_id)


@dataclass(frozen=True, slots=True)
class TargetReactions:
    target: str
    counts: dict[str, int] = field(default_factory=dict)
    yours: str | None = None


def reactions_at(ports: Talking, viewer: PlayerRecord, game_id: str) -> list[TargetReactions]:
    """Every target's reactions counted, and the viewer's own, by target."""
    visible_game(ports, viewer, game_id)
    counts: dict[str, Counter[str]] = {}
    yours: dict[str, str] = {}
    for found in ports.talk.list_reactions(game_id):
        counts.setdefault(found.target, Counter())[found.reaction] += 1
        if found.player_id == viewer.player_id:
            yours[found.target] = found.reaction
    return [TargetReactions(t, dict(sorted(c.items())), yours.get(t)) for t, c in sorted(counts.items())]
