"""What the adapters of a player's credential items (personal tokens, app grants) share: such an item
read with the profile in one round trip (the item proves the secret, the profile names the player), and
the items of one kind in the player's partition."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from app.aws.dynamodb.items import player_key
from app.aws.dynamodb.sessions import profile_from_item
from app.aws.dynamodb.table import TableAdapter
from app.core.records import PlayerRecord


def with_profile(
    table: TableAdapter, player_id: str, key: dict[str, Any]
) -> tuple[PlayerRecord | None, dict[str, Any] | None]:
    """The player's profile and the item at `key` in their partition (None for either one missing)."""
    found = table.batch_get([player_key(player_id), key])
    profile = next((i for i in found if i["sk"]["S"] == "PROFILE"), None)
    item = next((i for i in found if i["sk"]["S"] != "PROFILE"), None)
    return (None if profile is None else profile_from_item(profile)), item


def items_of_kind(table: TableAdapter, player_id: str, prefix: str) -> Iterator[dict[str, Any]]:
    """Every item of the player's partition whose sort key starts with `prefix`."""
    return table.query_all(
        KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues={":pk": {"S": f"PLAYER#{player_id}"}, ":prefix": {"S": prefix}},
    )
