"""Services for use-case tests: every port over one in-memory double, or the real adapters."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app import bootstrap
from app.aws.dynamodb.feed import DynamoFeedStore
from app.aws.dynamodb.games import DynamoGameStore
from app.aws.dynamodb.inbox import DynamoInboxStore
from app.aws.dynamodb.players import DynamoPlayerStore
from app.aws.dynamodb.webhooks import DynamoWebhookStore
from app.core.records import GameRecord
from app.core.services import Services
from app.core.settings import get_settings
from app.decks.card_images import CardImages
from tests.fakes.memory_store import MemoryGameStore
from tests.support.sessions import sessions_for


def services_over(store: Any = None, **overrides: Any) -> Services:
    """A `Services` whose game, player, inbox, webhook and feed ports are all `store` (memory by default)."""
    store = store if store is not None else MemoryGameStore()
    real = bootstrap.services(settings=get_settings())
    built = replace(
        real,
        games=store,
        players=store,
        sessions=sessions_for(store),
        inbox=store,
        webhooks=store,
        feed=store,
        images=CardImages("", 3_600),
    )
    return replace(built, **overrides) if overrides else built


def dynamo_services(**overrides: Any) -> Services:
    """The adapters `app.bootstrap` builds, with `overrides` (a staged store, a fixed clock) on top."""
    built = bootstrap.services(settings=get_settings())
    return replace(built, **overrides) if overrides else built


class AllTablePorts:
    """The DynamoDB adapters of the game table as one object, for contract tests shared with the double."""

    def __init__(self, table: str, client: Any = None) -> None:
        self.parts = (
            DynamoGameStore(table, client),
            DynamoInboxStore(table, client),
            DynamoPlayerStore(table, client),
            DynamoWebhookStore(table, client),
            DynamoFeedStore(table, client),
        )

    def games_of(self, player_id: str) -> list[GameRecord]:
        """The games the player's membership items name (reads every game item: tests only)."""
        games = self.parts[0]
        items = games.query_all(
            KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
            ExpressionAttributeValues={":pk": {"S": f"PLAYER#{player_id}"}, ":prefix": {"S": "GAME#"}},
        )
        return games._batch_get_games([item["game_id"]["S"] for item in items])

    def __getattr__(self, name: str) -> Any:
        for part in self.parts:
            if hasattr(type(part), name):
                return getattr(part, name)
        raise AttributeError(name)
