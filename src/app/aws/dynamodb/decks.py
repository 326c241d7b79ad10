"""Custom decks in the game table: one item per deck, each card's upload status in a map on it.

`DECK#<deck_id>` / `META` holds the owner, the name, the card count, `cards`: card number ("001") ->
{status, reason?}, and `descriptions`: card number -> the owner's description of it. The ingest updates
one card's entry at a time, so concurrent uploads never overwrite each other.

Game views show custom cards' descriptions as their alt text: `descriptions_of` reads only that map of
every deck a game uses in one BatchGetItem, and keeps it for the adapter's life (a warm environment),
as it keeps those of every deck it reads whole (the check of a new game's decks, say).
Nothing ever changes a deck's descriptions once it is created, so what is kept is never stale, and a
game with a custom deck costs one read per environment, not one per view (nor one per card).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from botocore.exceptions import ClientError

from app.aws.dynamodb.table import TableAdapter
from app.decks.ports import CardState, CardStatus, DeckRecord

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient


def _key(deck_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"DECK#{deck_id}"}, "sk": {"S": "META"}}


def _number(card_id: str) -> str:
    return card_id.rsplit("-", 1)[1]


# Decks whose descriptions are kept; at most 200 cards of 800 bytes each, so a few MB at worst.
KEPT_DECKS = 64


def _descriptions_from(deck_id: str, item: dict[str, Any]) -> dict[str, str]:
    return {
        f"{deck_id}-{number}": text["S"] for number, text in item.get("descriptions", {"M": {}})["M"].items()
    }


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
        descriptions=_descriptions_from(deck_id, item),
    )


class DynamoDeckStore(TableAdapter):
    def __init__(self, table_name: str, client: DynamoDBClient | None = None) -> None:
        super().__init__(table_name, client)
        # deck id -> its cards' descriptions, in the order first read (the oldest is dropped first).
        self._descriptions: dict[str, dict[str, str]] = {}

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
        if item is None:
            return None
        deck = _deck_from_item(item)
        self._keep(deck.deck_id, deck.descriptions)  # the game a deck is checked for then reads nothing
        return deck

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

    def descriptions_of(self, deck_ids: Collection[str]) -> dict[str, str]:
        """Card id -> description for these decks: the kept ones at no cost, the others in one read."""
        missing = sorted({d for d in deck_ids if d not in self._descriptions})
        if missing:
            items = self.batch_get(
                [_key(d) for d in missing],
                ProjectionExpression="deck_id, #d",
                ExpressionAttributeNames={"#d": "descriptions"},
            )
            # A deck not found is not kept: there is nothing to keep, and its id may yet be created.
            for item in items:
                deck_id = item["deck_id"]["S"]
                self._keep(deck_id, _descriptions_from(deck_id, item))
        described: dict[str, str] = {}
        for deck_id in deck_ids:
            described.update(self._descriptions.get(deck_id, {}))
        return described

    def _keep(self, deck_id: str, descriptions: dict[str, str]) -> None:
        self._descriptions.pop(deck_id, None)  # kept anew: the newest
        self._descriptions[deck_id] = descriptions
        while len(self._descriptions) > KEPT_DECKS:
            del self._descriptions[next(iter(self._descriptions))]
