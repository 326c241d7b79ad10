"""The game table's keys and item codecs, shared by the adapters that write the same items."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from botocore.exceptions import ClientError

from app.core.records import GameRecord, Membership, StoredAnswer, Visibility
from app.games import state_codec
from app.games.keys import FINISHED_PREFIX, due_shard, finished_key
from dixit.state import Phase, RoundResult

LOBBY = "LOBBY"
INDEX = "gsi1"  # public lobbies, keys only
DUE_INDEX = "due"  # app.games.due_index (partitioned by app.games.keys.due_shard), keys only
IDEMPOTENCY_PK = "IDEMPOTENCY"


def player_key(player_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"PLAYER#{player_id}"}, "sk": {"S": "PROFILE"}}


def game_key(game_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"GAME#{game_id}"}, "sk": {"S": "STATE"}}


def membership_key(player_id: str, game_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"PLAYER#{player_id}"}, "sk": {"S": f"GAME#{game_id}"}}


def finished_membership_key(entry: Membership) -> dict[str, Any]:
    return {"pk": {"S": f"PLAYER#{entry.player_id}"}, "sk": {"S": FINISHED_PREFIX + finished_key(entry)}}


def entry_attributes(entry: Membership) -> dict[str, Any]:
    return {
        "game_id": {"S": entry.game_id},
        "entry": {"S": entry.to_json()},
        "entry_version": {"N": str(entry.version)},
    }


def membership_from_item(item: dict[str, Any]) -> Membership | None:
    if "entry" not in item:
        return None
    player_id = item["pk"]["S"].removeprefix("PLAYER#")
    version = int(item.get("entry_version", {}).get("N", "0"))
    return Membership.from_json(player_id, item["game_id"]["S"], item["entry"]["S"], version)


def game_item(record: GameRecord, scored: RoundResult | None = None) -> dict[str, Any]:
    """The game item; `scored`, a reveal its state cannot tell whole, for the stream consumer."""
    state = record.state
    item: dict[str, Any] = {
        **game_key(record.game_id),
        "version": {"N": str(state.version)},
        "state": {"B": state_codec.pack(state)},
        "phase": {"S": state.phase.value},
        "visibility": {"S": record.visibility.value},
        "invite_code": {"S": record.invite_code},
        "created_at": {"S": record.created_at},
        "updated_at": {"S": record.updated_at},
    }
    if scored is not None:
        item[state_codec.SCORED_ROUND] = {"S": state_codec.round_json(scored)}
    if record.recent_requests:
        item["requests"] = {"S": " ".join(record.recent_requests)}
    if record.invite_barred:
        item["invite_barred"] = {"SS": list(record.invite_barred)}
    if record.rematch_of is not None:
        item["rematch_of"] = {"S": record.rematch_of}
    # Read by projection for conditional GETs (game_stamp): who may see the game, without its state.
    member_ids = [p.player_id for p in state.players]
    if member_ids:
        item["members"] = {"SS": member_ids}
    # Both indexes are sparse and keys only, so a move that leaves their keys alone costs them nothing.
    if state.phase is Phase.LOBBY and record.visibility is Visibility.PUBLIC:
        item["gsi1pk"] = {"S": LOBBY}
        item["gsi1sk"] = {"S": f"{record.created_at}#{record.game_id}"}
    if record.due_at is not None and state.phase is not Phase.FINISHED:
        item["due_shard"] = {"S": due_shard(record.game_id)}
        item["due_at"] = {"N": str(record.due_at)}
    return item


def game_from_item(item: dict[str, Any]) -> GameRecord:
    due = item.get("due_at")
    return GameRecord(
        state=state_codec.unpack(item["state"].get("B", item["state"].get("S", ""))),
        visibility=Visibility(item["visibility"]["S"]),
        invite_code=item["invite_code"]["S"],
        created_at=item["created_at"]["S"],
        updated_at=item["updated_at"]["S"],
        due_at=None if due is None else int(due["N"]),
        recent_requests=tuple(item["requests"]["S"].split()) if "requests" in item else (),
        invite_barred=tuple(sorted(item.get("invite_barred", {}).get("SS", ()))),
        rematch_of=item["rematch_of"]["S"] if "rematch_of" in item else None,
    )


def answer_put(table_name: str, answer: StoredAnswer, now: int) -> dict[str, Any]:
    # An expired record that DynamoDB's TTL has not swept yet does not hold its key any longer.
    return {
        "TableName": table_name,
        "Item": {
            "pk": {"S": IDEMPOTENCY_PK},
            "sk": {"S": answer.key_id},
            "fingerprint": {"S": answer.fingerprint},
            "answer": {"B": answer.payload},
            "expires_at": {"N": str(answer.expires_at)},
        },
        "ConditionExpression": "attribute_not_exists(pk) OR expires_at <= :now",
        "ExpressionAttributeValues": {":now": {"N": str(now)}},
    }


def membership_put(
    table_name: str, player_id: str, record: GameRecord, entry: Membership | None
) -> dict[str, Any]:
    item = {
        **membership_key(player_id, record.game_id),
        "game_id": {"S": record.game_id},
        "joined_at": {"S": record.updated_at},
    }
    return {
        "TableName": table_name,
        "Item": item if entry is None else {**item, **entry_attributes(entry)},
    }


def round_put(table_name: str, game_id: str, result: RoundResult) -> dict[str, Any]:
    # Unconditional: a redelivered stream record writes the very same item again.
    return {
        "TableName": table_name,
        "Item": {
            "pk": {"S": f"GAME#{game_id}"},
            "sk": {"S": f"ROUND#{result.number:04d}"},
            "result": {"S": state_codec.round_json(result)},
        },
    }


def epoch(iso: str) -> int:
    return int(datetime.fromisoformat(iso).timestamp())


def current_version(error: ClientError) -> int | None:
    response: dict[str, Any] = dict(error.response)
    if "Item" in response:
        return _version_in(response["Item"])
    for reason in response.get("CancellationReasons", []) or []:
        if reason.get("Code") == "ConditionalCheckFailed":
            return _version_in(reason.get("Item"))
    return None


def _version_in(item: dict[str, Any] | None) -> int | None:
    if not item or "version" not in item:
        return None
    return int(item["version"]["N"])
