"""The outbox's send ledger in the game table: `PLAYER#<id>` / `SEND#<send id>`.

One item per send (`claimed_until`, `sent`), expiring SEND_TTL_SECONDS after its last write: longer
than the queues keep a message, so a redelivery always finds it. In the player's partition, so erasing
an account takes them; no `sk = STATE`, so the stream consumer never sees them.
"""

from __future__ import annotations

from typing import Any

from app.aws.dynamodb.table import TableAdapter
from app.notify.outbox_ports import Claim

SEND_PREFIX = "SEND#"
SEND_TTL_SECONDS = 4 * 86_400


def _key(player_id: str, send_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"PLAYER#{player_id}"}, "sk": {"S": f"{SEND_PREFIX}{send_id}"}}


class DynamoSendLedger(TableAdapter):
    def claim_send(self, player_id: str, send_id: str, *, now: int, claim_seconds: int) -> Claim:
        key = _key(player_id, send_id)
        if self.conditional_update(
            key,
            UpdateExpression="SET claimed_until = :until, sent = :no, expires_at = :expires",
            ConditionExpression="attribute_not_exists(pk) OR (sent = :no AND claimed_until <= :now)",
            ExpressionAttributeValues={
                ":until": {"N": str(now + claim_seconds)},
                ":now": {"N": str(now)},
                ":no": {"BOOL": False},
                ":expires": {"N": str(now + SEND_TTL_SECONDS)},
            },
        ):
            return Claim.CLAIMED
        item = self.client.get_item(TableName=self.table_name, Key=key, ConsistentRead=True).get("Item")
        if item is not None and item.get("sent", {}).get("BOOL"):
            return Claim.SENT
        return Claim.BUSY

    def mark_sent(self, player_id: str, send_id: str, *, now: int) -> None:
        self.client.update_item(
            TableName=self.table_name,
            Key=_key(player_id, send_id),
            UpdateExpression="SET sent = :yes, sent_at = :now, expires_at = :expires",
            ExpressionAttributeValues={
                ":yes": {"BOOL": True},
                ":now": {"N": str(now)},
                ":expires": {"N": str(now + SEND_TTL_SECONDS)},
            },
        )

    def release_send(self, player_id: str, send_id: str) -> None:
        # Only an unsent claim: a send that went out stays sent whatever a late failure says.
        self.conditional_update(
            _key(player_id, send_id),
            UpdateExpression="SET claimed_until = :zero",
            ConditionExpression="attribute_exists(pk) AND sent = :no",
            ExpressionAttributeValues={":zero": {"N": "0"}, ":no": {"BOOL": False}},
        )
