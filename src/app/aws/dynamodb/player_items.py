"""What the stores of a player's credentials (personal tokens, app grants) share: their items live in the
player's partition beside the profile, read with it in one round trip and listed by their prefix."""

from __future__ import annotations

from typing import Any

from app.aws.dynamodb.items import player_key
from app.aws.dynamodb.sessions import profile_from_item
from app.aws.dynamodb.table import TableAdapter
from app.core.records import PlayerRecord


class PlayerItemsAdapter(TableAdapter):
    def with_profile(
        self, player_id: str, key: dict[str, Any]
    ) -> tuple[PlayerRecord | None, dict[str, Any] | None]:
        """The player's profile and the item at `key`, in one round trip (either may be missing): the
        item proves a secret, the profile names the player."""
        found = self.batch_get([player_key(player_id), key])
        profile = next((i for i in found if i["sk"]["S"] == "PROFILE"), None)
        item = next((i for i in found if i["sk"]["S"] != "PROFILE"), None)
        return (None if profile is None else profile_from_item(profile)), item

    def items_under(self, player_id: str, prefix: str) -> list[dict[str, Any]]:
        """Every item of the player's whose sort key starts with `prefix`."""
        return list(
            self.query_all(
                KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
                ExpressionAttributeValues={":pk": {"S": f"PLAYER#{player_id}"}, ":prefix": {"S": prefix}},
            )
        )
