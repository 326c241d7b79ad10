"""What a poll, the inbox and a whole game cost, computed from the items the store really writes.

    .venv/bin/python bench/poll_cost.py

DynamoDB bills a read by the whole item's size (4 KB steps, halved when eventually consistent), whatever
the projection, and a write by 1 KB steps (doubled in a transaction). So the numbers come from item
sizes measured on bot-played games, with 32-character names. The inbox entries are written by
GameStreamFunction from the table's stream (app.games.inbox.refresh): one Lambda invocation per game write (a
by-mail game's writes are hours apart, so the one-second batching window never joins two) and one
conditional UpdateItem per entry that changed, outside any transaction; so is each scored round's history
item (app.games.history), one PutItem.
"""

from __future__ import annotations

import math
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

from app.aws.dynamodb.items import finished_membership_key, game_item, membership_key, round_put
from app.core.records import GameRecord, Membership, Visibility
from app.games import history
from app.games.inbox import entries_for
from app.games.play import RECENT_REQUESTS
from app.notify.messages import changes
from dixit.bots import RandomBot, next_mover
from dixit.engine import apply, new_game
from dixit.moves import Join, Start
from dixit.settings import Settings
from dixit.views import view_for
from local_stack.template import load_template

ROOT = Path(__file__).resolve().parents[1]
STAMP = "2026-11-30T09:30:00.000+00:00"
TINY_VERSION_ITEM = {"pk": {"S": "GAME#g_0123456789abcdef"}, "sk": {"S": "VERSION"}, "version": {"N": "123"}}

# List prices, us-east-1 (as bench/run.py): API Gateway REST, Lambda arm64, DynamoDB on-demand, SNS.
API_PER_REQUEST = 3.50e-6
LAMBDA_PER_REQUEST = 0.20e-6
LAMBDA_ARM_PER_GB_SECOND = 0.0000133334
LAMBDA_GB = 0.5  # the template's MemorySize (Globals), for ApiFunction and GameStreamFunction alike
DYNAMODB_PER_WRU = 0.625e-6
DYNAMODB_PER_RRU = 0.125e-6
SNS_PER_PUBLISH = 0.50e-6
# Assumed billed durations (bench/run.py measures the API's CPU; these round it up with DynamoDB calls).
API_BILLED_MS = 30
NOTIFY_BILLED_MS = 30
POLL_SECONDS = int(load_template(ROOT / "template.yaml")["Parameters"]["PollSeconds"]["Default"])
GAME_DAYS = 3


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


def entry_item(entry: Membership) -> dict[str, Any]:
    key = finished_membership_key(entry) if entry.finished else membership_key(entry.player_id, entry.game_id)
    return {
        **key,
        "game_id": {"S": entry.game_id},
        "joined_at": {"S": STAMP},
        "entry": {"S": entry.to_json()},
        "entry_version": {"N": "123"},
    }


def wcu(item: dict[str, Any]) -> int:
    return math.ceil(size(item) / 1024)


def lambda_cost(billed_ms: int) -> float:
    return LAMBDA_PER_REQUEST + billed_ms / 1000 * LAMBDA_GB * LAMBDA_ARM_PER_GB_SECOND


def play(players: int, rules: str, seed: int) -> dict[str, float]:
    name = "N" * 32
    state = new_game("g_0123456789abcdef", host_id="p_0000000000000000", host_name=name,
                     settings=Settings.build(rules), seed=seed)  # fmt: skip
    ids = [f"p_{i:016x}" for i in range(players)]
    for pid in ids[1:]:
        state = apply(state, Join(pid, name), now=0).state
    state = apply(state, Start(ids[0]), now=0).state
    # The game item remembers its last writes' request ids (8 characters each): as many as it holds.
    requests = tuple(f"r{n:07d}" for n in range(RECENT_REQUESTS))
    record = GameRecord(state, Visibility.PUBLIC, "invite", STAMP, STAMP, recent_requests=requests)
    bots = {pid: RandomBot(pid, seed + n) for n, pid in enumerate(ids)}
    game_max = entry_max = moves = entry_writes = entry_wcu = move_wcu = round_wcu = publishes = 0
    while (mover := next_mover(record.state)) is not None:
        move = bots[mover].choose(view_for(record.state, mover))
        assert move is not None
        applied = apply(record.state, move, now=0)
        updated = replace(record, state=applied.state)
        moves += 1
        # One put of the game item, a scoring vote's too (carrying the reveal only when players left).
        game_units = wcu(game_item(updated, history.carried(updated.state, applied.finished_round)))
        move_wcu += game_units
        if applied.finished_round is not None:
            # GameStreamFunction puts the round's history item (app.games.history), outside any transaction.
            round_wcu += wcu(round_put("t", updated.game_id, applied.finished_round)["Item"])
        # What GameStreamFunction writes for this record (inbox.refresh): changed entries, or the history.
        old, new = entries_for(record.state, STAMP), entries_for(updated.state, STAMP)
        if updated.state.phase is not record.state.phase and new and next(iter(new.values())).finished:
            entry_writes += 2 * len(new)  # a put into the history and a delete from the active range
            entry_wcu += sum(wcu(entry_item(e)) + 1 for e in new.values())
        else:
            changed = [e for pid, e in new.items() if pid in old and not e.same_entry(old[pid])]
            entry_writes += len(changed)
            entry_wcu += sum(wcu(entry_item(e)) for e in changed)
        publishes += len(changes(record.state, updated.state))
        game_max = max(game_max, size(game_item(updated)))
        entry_max = max([entry_max, *(size(entry_item(e)) for e in new.values())])
        record = updated
    polls = players * GAME_DAYS * 86_400 / POLL_SECONDS
    request = API_PER_REQUEST + lambda_cost(API_BILLED_MS)
    cost_moves = moves * request + move_wcu * DYNAMODB_PER_WRU
    cost_views = moves * (request + 1 * DYNAMODB_PER_RRU)  # one consistent read of the game (< 4 KB)
    cost_consumer = moves * lambda_cost(NOTIFY_BILLED_MS) + (entry_wcu + round_wcu) * DYNAMODB_PER_WRU
    cost_sns = publishes * SNS_PER_PUBLISH
    cost_polls = polls * (request + 0.5 * DYNAMODB_PER_RRU)  # one eventually consistent query, < 4 KB
    total = cost_moves + cost_views + cost_consumer + cost_sns + cost_polls
    return {
        "moves": moves,
        "game item max B": game_max,
        "membership item max B": entry_max,
        "poll RCU, projection (consistent)": math.ceil(game_max / 4096),
        "poll RCU, tiny version item (consistent)": math.ceil(size(TINY_VERSION_ITEM) / 4096),
        "WCU per move, move path (avg)": move_wcu / moves,
        "entries written per move by GameStreamFunction (avg)": entry_writes / moves,
        "entry WCU per move by GameStreamFunction (avg)": entry_wcu / moves,
        "round history WCU per game by GameStreamFunction": round_wcu,
        "GameStreamFunction invocations": moves,
        f"inbox polls ({GAME_DAYS} days, every {POLL_SECONDS} s)": polls,
        "cost: moves ($)": cost_moves,
        "cost: one game view per move ($)": cost_views,
        "cost: GameStreamFunction, inbox entries and rounds ($)": cost_consumer,
        "cost: SNS publishes ($)": cost_sns,
        "cost: inbox polls ($)": cost_polls,
        "cost: total ($)": total,
    }


def main() -> None:
    for players, rules in ((3, "classic"), (5, "classic"), (6, "classic"), (12, "odyssey")):
        print(f"{players} players, {rules}:")
        for key, value in play(players, rules, seed=1).items():
            if key.startswith("cost"):
                print(f"  {key:58} {value:8.5f}")
            elif isinstance(value, float):
                print(f"  {key:58} {value:8.2f}")
            else:
                print(f"  {key:58} {value:8}")


if __name__ == "__main__":
    main()
