"""What a poll and the inbox cost in DynamoDB units, computed from the items the store really writes.

    .venv/bin/python bench/poll_cost.py

DynamoDB bills a read by the whole item's size (4 KB steps, halved when eventually consistent), whatever
the projection, and a write by 1 KB steps (doubled in a transaction). So the numbers come from item
sizes measured on bot-played games, at the largest point of each game, with 32-character names.
"""

from __future__ import annotations

import math
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from app.game_store import DynamoGameStore, _finished_membership_key, _game_item, _membership_key
from app.inbox import changed_entries, entries_for
from app.records import GameRecord, Visibility
from dixit.bots import RandomBot, next_mover
from dixit.engine import apply, new_game
from dixit.moves import Join, Start
from dixit.settings import Settings
from dixit.views import view_for

STAMP = "2026-11-30T09:30:00.000+00:00"
TINY_VERSION_ITEM = {"pk": {"S": "GAME#g_0123456789abcdef"}, "sk": {"S": "VERSION"}, "version": {"N": "123"}}


def size(item: dict[str, Any]) -> int:
    """DynamoDB's item size: names plus values (UTF-8 strings, numbers about 1 byte per 2 digits)."""
    total = 0
    for name, value in item.items():
        total += len(name.encode())
        ((kind, data),) = value.items()
        if kind == "S":
            total += len(data.encode())
        elif kind == "N":
            total += math.ceil(len(data) / 2) + 1
        elif kind == "SS":
            total += sum(len(s.encode()) for s in data)
    return total


def entry_item(entry: Any) -> dict[str, Any]:
    key = (
        _finished_membership_key(entry) if entry.finished else _membership_key(entry.player_id, entry.game_id)
    )
    return {**key, "game_id": {"S": entry.game_id}, "entry": {"S": entry.to_json()}}


def play(players: int, rules: str, seed: int) -> dict[str, float]:
    name = "N" * 32
    state = new_game("g_0123456789abcdef", host_id="p_0000000000000000", host_name=name,
                     settings=Settings.build(rules), seed=seed)  # fmt: skip
    ids = [f"p_{i:016x}" for i in range(players)]
    for pid in ids[1:]:
        state = apply(state, Join(pid, name), now=0).state
    state = apply(state, Start(ids[0]), now=0).state
    record = GameRecord(state, Visibility.PUBLIC, "invite", STAMP, STAMP)
    bots = {pid: RandomBot(pid, seed + n) for n, pid in enumerate(ids)}
    game_max = entry_max = moves = entry_writes = entry_wcu = 0
    while (mover := next_mover(record.state)) is not None:
        move = bots[mover].choose(view_for(record.state, mover))
        assert move is not None
        updated = replace(record, state=apply(record.state, move, now=0).state)
        changed = changed_entries(record, updated)
        moves += 1
        entry_writes += len(changed)
        entry_wcu += sum(math.ceil(size(entry_item(e)) / 1024) for e in changed)
        game_max = max(game_max, size(_game_item(updated)))
        entry_max = max([entry_max, *(size(entry_item(e)) for e in entries_for(updated).values())])
        record = updated
    return {
        "moves": moves,
        "game item max B": game_max,
        "membership item max B": entry_max,
        "poll RCU, projection (consistent)": math.ceil(game_max / 4096),
        "poll RCU, tiny version item (consistent)": math.ceil(size(TINY_VERSION_ITEM) / 4096),
        "extra WCU/move for a tiny version item (in a transaction)": 2,
        "memberships written per move (avg)": entry_writes / moves,
        "membership WCU per move (avg, x2 in a transaction)": 2 * entry_wcu / moves,
    }


def main() -> None:
    assert DynamoGameStore  # the adapter whose item layout is measured
    for players, rules in ((3, "classic"), (5, "classic"), (6, "classic"), (12, "odyssey")):
        print(f"{players} players, {rules}:")
        for key, value in play(players, rules, seed=1).items():
            print(f"  {key:58} {value:8.2f}" if isinstance(value, float) else f"  {key:58} {value:8}")


if __name__ == "__main__":
    main()
