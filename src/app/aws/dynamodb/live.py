"""The live channel's items in the game table, each in a partition of its own (`LIVE#…`) so that no other
feature's query of a game's or a player's partition ever meets them, and each expiring (`expires_at`):

- `LIVE#TICKET#<sha256 of the ticket>` / `TICKET`: `player_id`, `credential`, for TICKET_SECONDS;
- `LIVE#CONN#<connection id>` / `CONN`: `player_id`, `credential`, `watches` (a string set of game ids);
- `LIVE#PLAYER#<player id>` / `<connection id>`: the player's connections (the inbox's fan-out, the cap),
  with the `credential` each was opened with (forgotten when it is revoked);
- `LIVE#GAME#<game id>` / `<connection id>`: who watches the game (`player_id`).

None has `sk = STATE`: the stream consumer's filter never passes them on. DynamoDB deletes expired items
within days, not seconds, so every read also skips an item whose `expires_at` has passed.
"""

from __future__ import annotations

from typing import Any

from app.aws.dynamodb.table import TableAdapter, written_if_condition_held
from app.live.ports import TicketHolder


def _ticket(ticket_hash: str) -> dict[str, Any]:
    return {"pk": {"S": f"LIVE#TICKET#{ticket_hash}"}, "sk": {"S": "TICKET"}}


def _connection(connection_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"LIVE#CONN#{connection_id}"}, "sk": {"S": "CONN"}}


def _under_player(player_id: str, connection_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"LIVE#PLAYER#{player_id}"}, "sk": {"S": connection_id}}


def _under_game(game_id: str, connection_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"LIVE#GAME#{game_id}"}, "sk": {"S": connection_id}}


def _live(item: dict[str, Any], now: int) -> bool:
    return int(item.get("expires_at", {}).get("N", "0")) > now


class DynamoLiveStore(TableAdapter):
    def put_ticket(self, ticket_hash: str, player_id: str, *, credential: str, expires_at: int) -> None:
        self.client.put_item(
            TableName=self.table_name,
            Item={
                **_ticket(ticket_hash),
                "player_id": {"S": player_id},
                "credential": {"S": credential},
                "expires_at": {"N": str(expires_at)},
            },
        )

    def take_ticket(self, ticket_hash: str, *, now: int) -> TicketHolder | None:
        taken: dict[str, Any] = {}

        def delete(**request: Any) -> None:
            taken.update(self.client.delete_item(**request).get("Attributes") or {})

        if not written_if_condition_held(
            delete,
            TableName=self.table_name,
            Key=_ticket(ticket_hash),
            ConditionExpression="attribute_exists(pk) AND expires_at > :now",
            ExpressionAttributeValues={":now": {"N": str(now)}},
            ReturnValues="ALL_OLD",
        ):
            return None
        return TicketHolder(str(taken["player_id"]["S"]), str(taken.get("credential", {}).get("S", "")))

    def add_connection(
        self,
        connection_id: str,
        player_id: str,
        *,
        now: int,
        expires_at: int,
        most: int,
        credential: str = "",
    ) -> bool:
        # A count, then the writes: two connects racing may both pass at the cap; the cap is against
        # flooding, and one over it is not a flood.
        if len(self.connections_of(player_id, now=now)) >= most:
            return False
        expires, held = {"N": str(expires_at)}, {"S": credential}
        self.batch_write(
            [
                {
                    "PutRequest": {
                        "Item": {
                            **_connection(connection_id),
                            "player_id": {"S": player_id},
                            "credential": held,
                            "expires_at": expires,
                        }
                    }
                },
                {
                    "PutRequest": {
                        "Item": {
                            **_under_player(player_id, connection_id),
                            "credential": held,
                            "expires_at": expires,
                        }
                    }
                },
            ]
        )
        return True

    def _connection_item(self, connection_id: str) -> dict[str, Any] | None:
        item = self.client.get_item(
            TableName=self.table_name, Key=_connection(connection_id), ConsistentRead=True
        ).get("Item")
        return item

    def player_of(self, connection_id: str, *, now: int) -> str | None:
        item = self._connection_item(connection_id)
        return None if item is None or not _live(item, now) else str(item["player_id"]["S"])

    def add_watch(
        self, connection_id: str, player_id: str, game_id: str, *, expires_at: int, most: int
    ) -> bool:
        # The set on the connection's item holds the cap (one conditional write); the game's item is
        # what the sender reads.
        if not self.conditional_update(
            _connection(connection_id),
            UpdateExpression="ADD watches :game",
            ConditionExpression=(
                "attribute_exists(pk) AND (attribute_not_exists(watches) OR size(watches) < :most "
                "OR contains(watches, :id))"
            ),
            ExpressionAttributeValues={
                ":game": {"SS": [game_id]},
                ":id": {"S": game_id},
                ":most": {"N": str(most)},
            },
        ):
            return False
        self.client.put_item(
            TableName=self.table_name,
            Item={
                **_under_game(game_id, connection_id),
                "player_id": {"S": player_id},
                "expires_at": {"N": str(expires_at)},
            },
        )
        return True

    def remove_watch(self, connection_id: str, game_id: str) -> None:
        self.client.delete_item(TableName=self.table_name, Key=_under_game(game_id, connection_id))
        self.conditional_update(
            _connection(connection_id),
            UpdateExpression="DELETE watches :game",
            ConditionExpression="attribute_exists(pk)",
            ExpressionAttributeValues={":game": {"SS": [game_id]}},
        )

    def forget(self, connection_id: str) -> None:
        item = self._connection_item(connection_id)
        if item is None:
            return
        keys = [_under_game(game_id, connection_id) for game_id in item.get("watches", {}).get("SS", [])]
        keys.append(_under_player(str(item["player_id"]["S"]), connection_id))
        # The connection's own item last: a forget that fails half-way can be done again from it.
        self.batch_write([{"DeleteRequest": {"Key": key}} for key in keys])
        self.client.delete_item(TableName=self.table_name, Key=_connection(connection_id))

    def _items_under(self, pk: str, now: int, attribute: str) -> dict[str, str]:
        """Each live item of the partition: its sort key (a connection id), and `attribute` ("" without)."""
        items = self.query_all(
            KeyConditionExpression="pk = :pk",
            ExpressionAttributeValues={":pk": {"S": pk}},
            ProjectionExpression="sk, expires_at, #attribute",
            ExpressionAttributeNames={"#attribute": attribute},
        )
        return {
            str(item["sk"]["S"]): str(item.get(attribute, {}).get("S", ""))
            for item in items
            if _live(item, now)
        }

    def watchers_with_players(self, game_id: str, *, now: int) -> dict[str, str]:
        return self._items_under(f"LIVE#GAME#{game_id}", now, "player_id")

    def connections_of(self, player_id: str, *, now: int) -> list[str]:
        return list(self._items_under(f"LIVE#PLAYER#{player_id}", now, "credential"))

    def credentials_of(self, player_id: str, *, now: int) -> dict[str, str]:
        return self._items_under(f"LIVE#PLAYER#{player_id}", now, "credential")
