"""Table talk: each message under its game, pk `GAME#<game_id>`, sk `TALK#<message_id>`, and a pointer
on the author's side, pk `PLAYER#<player_id>`, sk `TALKED#<game_id>`, so the export and the erasure find
a player's messages from the player (the erasure's partition wipe then takes the pointers too).

Beside the game item, never in it: a move still writes one item, and the table's stream (filtered on
`sk = STATE`) never sees a message.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.aws.dynamodb.table import TableAdapter, written_if_condition_held
from app.talk.records import MessageRecord, ReactionRecord

_PREFIX = "TALK#"
# A reaction's sort key, `REACT#<target>#<player_id>`: one per player per target, by its key alone.
_REACTION = "REACT#"
# Whom a player muted: `PLAYER#<player_id>` / `MUTED#<muted_id>`, gone with their partition.
_MUTED = "MUTED#"
# Whom a player blocked: `PLAYER#<player_id>` / `BLOCKED#<blocked_id>`, beside the mute a block brings.
_BLOCKED = "BLOCKED#"
# How far a player read a game's talk: `PLAYER#<player_id>` / `READ#<game_id>`, `message_id`.
_READ = "READ#"
# A report: `REPORT#<message_id>#<reporter_id>` under the game, beside the message it names.
_REPORT = "REPORT#"


class DynamoTalkStore(TableAdapter):
    def put_message(self, message: MessageRecord, *, expires_at: int | None) -> None:
        # The pointer first: a message is never stored without the way its author's erasure finds it.
        self.client.put_item(
            TableName=self.table_name,
            Item={
                "pk": {"S": f"PLAYER#{message.author_id}"},
                "sk": {"S": f"TALKED#{message.game_id}"},
                "game_id": {"S": message.game_id},
            },
        )
        self.client.put_item(TableName=self.table_name, Item=_item(message, expires_at))

    def list_messages(self, game_id: str, *, before: str, limit: int) -> list[MessageRecord]:
        response = self.client.query(
            TableName=self.table_name,
            KeyConditionExpression="pk = :pk AND sk BETWEEN :first AND :last",
            ExpressionAttributeValues={
                ":pk": {"S": f"GAME#{game_id}"},
                ":first": {"S": _PREFIX},
                # Ids are "m_" and digits and hex, so "~" sorts after every one of them.
                ":last": {"S": f"{_PREFIX}{before}" if before else f"{_PREFIX}~"},
            },
            ScanIndexForward=False,
            Limit=limit + 1 if before else limit,
        )
        found = [_message(item) for item in response.get("Items", [])]
        # BETWEEN is inclusive: the cursor's own message is not part of the page before it.
        return [m for m in found if m.message_id != before][:limit]

    def expire_messages(self, game_id: str, *, expires_at: int) -> None:
        for item in self._keys_of(game_id):
            self.client.update_item(
                TableName=self.table_name,
                Key={"pk": item["pk"], "sk": item["sk"]},
                UpdateExpression="SET expires_at = :at",
                ExpressionAttributeValues={":at": {"N": str(expires_at)}},
            )

    def messages_by(self, player_id: str) -> list[MessageRecord]:
        return [
            _message(item)
            for game_id in self._games_talked_in(player_id)
            for item in self.query_all(
                KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
                FilterExpression="author_id = :me",
                ExpressionAttributeValues={
                    ":pk": {"S": f"GAME#{game_id}"},
                    ":prefix": {"S": _PREFIX},
                    ":me": {"S": player_id},
                },
            )
        ]

    def erase_messages_by(self, player_id: str, *, name: str) -> int:
        erased = 0
        for message in self.messages_by(player_id):
            if message.text is None:
                continue  # an erasure cut short and retried: this one is done
            self.client.update_item(
                TableName=self.table_name,
                Key={"pk": {"S": f"GAME#{message.game_id}"}, "sk": {"S": f"{_PREFIX}{message.message_id}"}},
                UpdateExpression="REMOVE #text SET author_name = :name",
                ExpressionAttributeNames={"#text": "text"},
                ExpressionAttributeValues={":name": {"S": name}},
            )
            erased += 1
        return erased

    def get_message(self, game_id: str, message_id: str) -> MessageRecord | None:
        item = self.client.get_item(
            TableName=self.table_name,
            Key={"pk": {"S": f"GAME#{game_id}"}, "sk": {"S": f"{_PREFIX}{message_id}"}},
        ).get("Item")
        return None if item is None else _message(item)

    def put_reaction(self, reaction: ReactionRecord) -> None:
        self.client.put_item(
            TableName=self.table_name,
            Item={
                "pk": {"S": f"GAME#{reaction.game_id}"},
                "sk": {"S": f"{_REACTION}{reaction.target}#{reaction.player_id}"},
                "reaction": {"S": reaction.reaction},
            },
        )

    def remove_reaction(self, game_id: str, target: str, player_id: str) -> bool:
        response = self.client.delete_item(
            TableName=self.table_name,
            Key={"pk": {"S": f"GAME#{game_id}"}, "sk": {"S": f"{_REACTION}{target}#{player_id}"}},
            ReturnValues="ALL_OLD",
        )
        return "Attributes" in response

    def list_reactions(self, game_id: str) -> list[ReactionRecord]:
        found = []
        for item in self.query_all(
            KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
            ExpressionAttributeValues={":pk": {"S": f"GAME#{game_id}"}, ":prefix": {"S": _REACTION}},
        ):
            target, _, player_id = item["sk"]["S"].removeprefix(_REACTION).rpartition("#")
            found.append(ReactionRecord(game_id, target, player_id, item["reaction"]["S"]))
        return found

    def report_message(
        self, game_id: str, message_id: str, reporter_id: str, *, reason: str, at: str
    ) -> bool:
        new = written_if_condition_held(
            self.client.put_item,
            TableName=self.table_name,
            Item={
                "pk": {"S": f"GAME#{game_id}"},
                "sk": {"S": f"{_REPORT}{message_id}#{reporter_id}"},
                "reason": {"S": reason},
                "reported_at": {"S": at},
            },
            ConditionExpression="attribute_not_exists(pk)",
        )
        # Marked on every call: a report whose mark was lost to a fault gets it on the retry.
        self._mark(game_id, message_id, "reported")
        return new

    def hide_message(self, game_id: str, message_id: str) -> None:
        self._mark(game_id, message_id, "hidden_by_host")

    def _mark(self, game_id: str, message_id: str, flag: str) -> None:
        self.client.update_item(
            TableName=self.table_name,
            Key={"pk": {"S": f"GAME#{game_id}"}, "sk": {"S": f"{_PREFIX}{message_id}"}},
            UpdateExpression=f"SET {flag} = :yes",
            ConditionExpression="attribute_exists(pk)",
            ExpressionAttributeValues={":yes": {"BOOL": True}},
        )

    def mute_player(self, player_id: str, muted_id: str, *, at: str) -> None:
        self.client.put_item(
            TableName=self.table_name,
            Item={
                "pk": {"S": f"PLAYER#{player_id}"},
                "sk": {"S": f"{_MUTED}{muted_id}"},
                "muted_at": {"S": at},
            },
        )

    def unmute_player(self, player_id: str, muted_id: str) -> bool:
        response = self.client.delete_item(
            TableName=self.table_name,
            Key={"pk": {"S": f"PLAYER#{player_id}"}, "sk": {"S": f"{_MUTED}{muted_id}"}},
            ReturnValues="ALL_OLD",
        )
        return "Attributes" in response

    def muted_players(self, player_id: str) -> list[str]:
        return [
            item["sk"]["S"].removeprefix(_MUTED)
            for item in self.query_all(
                KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
                ExpressionAttributeValues={":pk": {"S": f"PLAYER#{player_id}"}, ":prefix": {"S": _MUTED}},
                ProjectionExpression="sk",
            )
        ]

    def muters_of(self, author_id: str, among: Sequence[str]) -> set[str]:
        keys = [
            {"pk": {"S": f"PLAYER#{p}"}, "sk": {"S": f"{_MUTED}{author_id}"}} for p in dict.fromkeys(among)
        ]
        if not keys:
            return set()
        return {
            item["pk"]["S"].removeprefix("PLAYER#")
            for item in self.batch_get(keys, ProjectionExpression="pk")
        }

    def mark_read(self, player_id: str, game_id: str, message_id: str) -> bool:
        key = {"pk": {"S": f"PLAYER#{player_id}"}, "sk": {"S": f"{_READ}{game_id}"}}
        # Read first (an eventually consistent half unit): a page read again, the most common case, then
        # writes nothing at all, where a failed conditional write would still be billed a write unit.
        seen = self.client.get_item(TableName=self.table_name, Key=key, ProjectionExpression="message_id")
        if seen.get("Item", {}).get("message_id", {}).get("S", "") >= message_id:
            return False
        return written_if_condition_held(
            self.client.update_item,
            TableName=self.table_name,
            Key=key,
            UpdateExpression="SET message_id = :m",
            # Ids sort by time: a page read on another device, or an older one, never moves it back.
            ConditionExpression="attribute_not_exists(message_id) OR message_id < :m",
            ExpressionAttributeValues={":m": {"S": message_id}},
        )

    def read_marks(self, player_id: str) -> dict[str, str]:
        return {
            item["sk"]["S"].removeprefix(_READ): item["message_id"]["S"]
            for item in self.query_all(
                KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
                ExpressionAttributeValues={":pk": {"S": f"PLAYER#{player_id}"}, ":prefix": {"S": _READ}},
            )
        }

    def authors_after(self, game_id: str, after: str, *, limit: int) -> list[str]:
        response = self.client.query(
            TableName=self.table_name,
            KeyConditionExpression="pk = :pk AND sk BETWEEN :first AND :last",
            ExpressionAttributeValues={
                ":pk": {"S": f"GAME#{game_id}"},
                ":first": {"S": f"{_PREFIX}{after}"},
                ":last": {"S": f"{_PREFIX}~"},
            },
            ProjectionExpression="sk, author_id",
            Limit=limit + 1,
        )
        # BETWEEN is inclusive: the message read last is not one after it.
        return [
            item["author_id"]["S"]
            for item in response.get("Items", [])
            if item["sk"]["S"] != f"{_PREFIX}{after}"
        ][:limit]

    def block_player(self, player_id: str, blocked_id: str, *, at: str) -> None:
        # The mute first: a block is never stored without the mute that hides the blocked player's words.
        self.mute_player(player_id, blocked_id, at=at)
        self.client.put_item(
            TableName=self.table_name,
            Item={
                "pk": {"S": f"PLAYER#{player_id}"},
                "sk": {"S": f"{_BLOCKED}{blocked_id}"},
                "blocked_at": {"S": at},
            },
        )

    def unblock_player(self, player_id: str, blocked_id: str) -> bool:
        response = self.client.delete_item(
            TableName=self.table_name,
            Key={"pk": {"S": f"PLAYER#{player_id}"}, "sk": {"S": f"{_BLOCKED}{blocked_id}"}},
            ReturnValues="ALL_OLD",
        )
        self.unmute_player(player_id, blocked_id)
        return "Attributes" in response

    def blocked_players(self, player_id: str) -> list[str]:
        return [
            item["sk"]["S"].removeprefix(_BLOCKED)
            for item in self.query_all(
                KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
                ExpressionAttributeValues={":pk": {"S": f"PLAYER#{player_id}"}, ":prefix": {"S": _BLOCKED}},
                ProjectionExpression="sk",
            )
        ]

    def blocks_between(self, player_id: str, others: Sequence[str]) -> set[tuple[str, str]]:
        # Both directions in one batch: each other's block of the player, and the player's of each other.
        unique = [p for p in dict.fromkeys(others) if p != player_id]
        keys = [
            key
            for other in unique
            for key in (
                {"pk": {"S": f"PLAYER#{other}"}, "sk": {"S": f"{_BLOCKED}{player_id}"}},
                {"pk": {"S": f"PLAYER#{player_id}"}, "sk": {"S": f"{_BLOCKED}{other}"}},
            )
        ]
        if not keys:
            return set()
        return {
            (item["pk"]["S"].removeprefix("PLAYER#"), item["sk"]["S"].removeprefix(_BLOCKED))
            for item in self.batch_get(keys, ProjectionExpression="pk, sk")
        }

    def _games_talked_in(self, player_id: str) -> list[str]:
        return [
            item["game_id"]["S"]
            for item in self.query_all(
                KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
                ExpressionAttributeValues={":pk": {"S": f"PLAYER#{player_id}"}, ":prefix": {"S": "TALKED#"}},
            )
        ]

    def _keys_of(self, game_id: str) -> list[dict[str, Any]]:
        return list(
            self.query_all(
                KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
                ExpressionAttributeValues={":pk": {"S": f"GAME#{game_id}"}, ":prefix": {"S": _PREFIX}},
                ProjectionExpression="pk, sk",
            )
        )


def _item(message: MessageRecord, expires_at: int | None) -> dict[str, Any]:
    item: dict[str, Any] = {
        "pk": {"S": f"GAME#{message.game_id}"},
        "sk": {"S": f"{_PREFIX}{message.message_id}"},
        "author_id": {"S": message.author_id},
        "author_name": {"S": message.author_name},
        "round": {"N": str(message.round)},
        "phase": {"S": message.phase},
        "posted_at": {"S": message.posted_at},
    }
    if message.text is not None:
        item["text"] = {"S": message.text}
    for flag in ("reported", "hidden_by_host"):
        if getattr(message, flag):
            item[flag] = {"BOOL": True}
    if expires_at is not None:
        item["expires_at"] = {"N": str(expires_at)}
    return item


def _message(item: dict[str, Any]) -> MessageRecord:
    pk: str = item["pk"]["S"]
    return MessageRecord(
        game_id=pk.removeprefix("GAME#"),
        message_id=item["sk"]["S"].removeprefix(_PREFIX),
        author_id=item["author_id"]["S"],
        author_name=item["author_name"]["S"],
        text=item["text"]["S"] if "text" in item else None,
        round=int(item["round"]["N"]),
        phase=item["phase"]["S"],
        posted_at=item["posted_at"]["S"],
        reported="reported" in item,
        hidden_by_host="hidden_by_host" in item,
    )
