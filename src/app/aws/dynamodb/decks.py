"""Custom decks in the game table: one item per deck, each card's upload status in a map on it.

`DECK#<deck_id>` / `META` holds the owner, the name, the card count, `cards`: card number ("001") ->
{status, reason?}, and `descriptions`: card number -> the owner's description of it. The ingest updates
one card's entry at a time, so concurrent uploads never overwrite each other.
"""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from app.aws.dynamodb.table import TableAdapter
from app.decks.ports import CardState, CardStatus, DeckRecord


def _key(deck_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"DECK#{deck_id}"}, "sk": {"S": "META"}}


def _number(card_id: str) -> str:
    return card_id.rsplit("-", 1)[1]


def _deck_from_item(item: dict[str, Any]) -> DeckRecord:
    deck_id = item["deck_id"]["S"]
    cards = {
        f"{deck_id}-{number}": CardState(
            CardStatus(entry["M"]["status"]["S"]),
            entry["M"]["reason"]["S"] if "reason" in entry["M"] else None,
        )
        for number, entry in item.get("cards", {"M": {}})["M"].items()
    }
    return DeckRecord(
        deck_id=deck_id,
        owner_id=item["owner_id"]["S"],
        name=item["name"]["S"],
        card_count=int(item["card_count"]["N"]),
        created_at=item["created_at"]["S"],
        cards=cards,
        descriptions={
            f"{deck_id}-{number}": text["S"]
            for number, text in item.get("descriptions", {"M": {}})["M"].items()
        },
    )


class DynamoDeckStore(TableAdapter):
    def create_deck(self, deck: DeckRecord) -> None:
        self.client.put_item(
            TableName=self.table_name,
            Item={
                **_key(deck.deck_id),
                "deck_id": {"S": deck.deck_id},
                "owner_id": {"S": deck.owner_id},
                "name": {"S": deck.name},
                "card_count": {"N": str(deck.card_count)},
                "created_at": {"S": deck.created_at},
                "cards": {"M": {}},
                "descriptions": {"M": {_number(c): {"S": text} for c, text in deck.descriptions.items()}},
            },
            ConditionExpression="attribute_not_exists(pk)",
        )

    def get_deck(self, deck_id: str) -> DeckRecord | None:
        item = self.client.get_item(TableName=self.table_name, Key=_key(deck_id), ConsistentRead=True).get(
            "Item"
        )
        return None if item is None else _deck_from_item(item)

    def record_card(self, card_id: str, state: CardState) -> bool:
        """Record one card's upload outcome; False when its deck does not exist."""
        deck_id = card_id.rsplit("-", 1)[0]
        entry: dict[str, Any] = {"status": {"S": state.status.value}}
        if state.reason is not None:
            entry["reason"] = {"S": state.reason}
        try:
            self.client.update_item(
                TableName=self.table_name,
                Key=_key(deck_id),
                UpdateExpression="SET cards.#n = :entry",
                ConditionExpression="attribute_exists(pk)",
                ExpressionAttributeNames={"#n": _number(card_id)},
                ExpressionAttributeValues={":entry": {"M": entry}},
            )
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException":
                return False
            raise
        return True
