"""Services for use-case tests: every port over its in-memory double, or the real adapters."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app import bootstrap
from app.aws.dynamodb.app_grants import DynamoAppGrantStore, DynamoCodeStore
from app.aws.dynamodb.decks import DynamoDeckStore
from app.aws.dynamodb.email import DynamoEmailStore
from app.aws.dynamodb.feed import DynamoFeedStore
from app.aws.dynamodb.games import DynamoGameStore
from app.aws.dynamodb.inbox import DynamoInboxStore
from app.aws.dynamodb.notify import DynamoNotificationStore
from app.aws.dynamodb.personal_tokens import DynamoPersonalTokenStore
from app.aws.dynamodb.players import DynamoPlayerStore
from app.aws.dynamodb.sessions import DynamoSessionStore
from app.aws.dynamodb.talk import DynamoTalkStore
from app.aws.dynamodb.web_push import DynamoWebPushStore
from app.aws.dynamodb.webhooks import DynamoWebhookStore
from app.core.records import GameRecord
from app.core.settings import AppSettings, get_settings
from app.decks.card_images import CardImages
from app.services import Services
from tests.fakes.app_grants import MemoryAppGrantStore, MemoryCodeStore
from tests.fakes.decks import MemoryDeckStore
from tests.fakes.email import MemoryEmailStore
from tests.fakes.feed import MemoryFeedStore
from tests.fakes.games import MemoryGameStore, MemoryInboxStore
from tests.fakes.live import MemoryLiveQueue, MemoryLiveStore, RecordingLiveSocket
from tests.fakes.mail import RecordingMailer
from tests.fakes.mail_ledger import MemoryDigestIndex, MemoryMailLedger
from tests.fakes.notify import MemoryNotificationStore
from tests.fakes.outbox import MemoryNotificationQueue, MemorySendLedger
from tests.fakes.personal_tokens import MemoryPersonalTokenStore
from tests.fakes.players import MemoryPlayerStore
from tests.fakes.push import MemoryNotifier
from tests.fakes.queue import MemoryWebhookQueue
from tests.fakes.sessions import MemorySessionStore
from tests.fakes.table import MemoryTable
from tests.fakes.talk import MemoryTalkStore
from tests.fakes.web_push import MemoryWebPushStore, RecordingWebPushSender
from tests.fakes.webhooks import MemoryWebhookStore
from tests.support.outbox import deliver_at_once

# The Services fields that are storage ports, each a Protocol in app/<feature>/ports.py.
# Sessions before players: a session double also answers replace_token, for the session, not the profile.
STORE_PORTS = (
    "games",
    "sessions",
    "players",
    "emails",
    "inbox",
    "webhooks",
    "feed",
    "decks",
    "notifications",
    "web_push_subscriptions",
    "personal_tokens",
    "talk",
    "app_grants",
    "oauth_codes",
)


class _OnePortObject:
    """Several port adapters as one object: each method is the first part's that has it."""

    parts: tuple[Any, ...]

    def __getattr__(self, name: str) -> Any:
        for part in self.parts:
            if hasattr(type(part), name):
                return getattr(part, name)
        raise AttributeError(name)


class AllMemoryPorts(_OnePortObject):
    """Every store port's in-memory double over one `MemoryTable`, by port name and as one object."""

    def __init__(self, table: MemoryTable | None = None) -> None:
        self.table = table if table is not None else MemoryTable()
        self.games = MemoryGameStore(self.table)
        self.inbox = MemoryInboxStore(self.table)
        self.players = MemoryPlayerStore(self.table)
        self.sessions = MemorySessionStore(self.players)
        self.emails = MemoryEmailStore(self.table)
        self.webhooks = MemoryWebhookStore(self.table)
        self.feed = MemoryFeedStore()
        self.decks = MemoryDeckStore()
        self.notifications = MemoryNotificationStore()
        self.mail_ledger = MemoryMailLedger()
        self.digests = MemoryDigestIndex()
        self.web_push_subscriptions = MemoryWebPushStore()
        self.send_ledger = MemorySendLedger()
        self.personal_tokens = MemoryPersonalTokenStore(self.players)
        self.talk = MemoryTalkStore()
        self.app_grants = MemoryAppGrantStore(self.players)
        self.oauth_codes = MemoryCodeStore()
        self.parts = tuple(getattr(self, port) for port in STORE_PORTS)
        # The items these doubles keep under `PLAYER#<id>` go when the player's partition is erased.
        self.table.partition_erasers += [
            self.sessions.erase_player,
            self.webhooks.erase_player,
            self.notifications.erase_player,
            self.mail_ledger.erase_player,
            self.web_push_subscriptions.erase_player,
            self.send_ledger.erase_player,
            self.personal_tokens.erase_player,
            self.talk.erase_player,
            self.app_grants.erase_player,
        ]


class AllTablePorts(_OnePortObject):
    """The DynamoDB adapters of the game table as one object, for contract tests shared with the doubles."""

    def __init__(self, table: str, client: Any = None) -> None:
        self.parts = (
            DynamoGameStore(table, client),
            DynamoInboxStore(table, client),
            DynamoSessionStore(table, client),
            DynamoPlayerStore(table, client),
            DynamoEmailStore(table, client),
            DynamoWebhookStore(table, client),
            DynamoFeedStore(table, client),
            DynamoDeckStore(table, client),
            DynamoNotificationStore(table, client),
            DynamoWebPushStore(table, client),
            DynamoPersonalTokenStore(table, client),
            DynamoTalkStore(table, client),
            DynamoAppGrantStore(table, client),
            DynamoCodeStore(table, client),
        )

    def games_of(self, player_id: str) -> list[GameRecord]:
        """The games the player's membership items name (reads every game item: tests only)."""
        games = self.parts[0]
        items = games.query_all(
            KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
            ExpressionAttributeValues={":pk": {"S": f"PLAYER#{player_id}"}, ":prefix": {"S": "GAME#"}},
        )
        return games._batch_get_games([item["game_id"]["S"] for item in items])


def memory_services(
    ports: AllMemoryPorts | None = None, *, settings: AppSettings | None = None, **overrides: Any
) -> Services:
    """Every port over its in-memory double, SNS and SQS recorded in memory: no moto, no environment.

    `settings` default to the defaults (AppSettings()), not to this process's environment. The outbox's
    queue delivers each message at once (tests/support/outbox.py), unless `notification_queue` is given.
    """
    ports = ports if ports is not None else AllMemoryPorts()
    queue = MemoryNotificationQueue()
    built = Services(
        settings=settings if settings is not None else AppSettings(),
        games=ports.games,
        players=ports.players,
        sessions=ports.sessions,
        emails=ports.emails,
        inbox=ports.inbox,
        webhooks=ports.webhooks,
        feed=ports.feed,
        decks=ports.decks,
        notifications=ports.notifications,
        push=MemoryNotifier(),
        webhook_queue=MemoryWebhookQueue(),
        mailer=RecordingMailer(),
        images=CardImages("", 3_600),
        mail_ledger=ports.mail_ledger,
        digests=ports.digests,
        web_push_subscriptions=ports.web_push_subscriptions,
        web_push=RecordingWebPushSender(),
        notification_queue=queue,
        send_ledger=ports.send_ledger,
        personal_tokens=ports.personal_tokens,
        talk=ports.talk,
        live=MemoryLiveStore(),
        live_queue=MemoryLiveQueue(),
        live_socket=RecordingLiveSocket(),
        app_grants=ports.app_grants,
        oauth_codes=ports.oauth_codes,
    )
    built = replace(built, **overrides) if overrides else built
    if "notification_queue" not in overrides:
        deliver_at_once(queue, lambda: built)
    return built


def _memory_ports(store: Any) -> AllMemoryPorts | None:
    """The AllMemoryPorts `store` is, or wraps (tests/app/staging.Interleaved keeps it as `inner`)."""
    for candidate in (store, getattr(store, "inner", None), getattr(store, "store", None)):
        if isinstance(candidate, AllMemoryPorts):
            return candidate
    return None


def services_over(store: Any, **overrides: Any) -> Services:
    """The environment's `Services` with every store port `store` (one object: AllMemoryPorts,
    AllTablePorts, or either staged by tests/app/staging.Interleaved), for tests run on both."""
    real = bootstrap.services(settings=get_settings())
    built = replace(real, **dict.fromkeys(STORE_PORTS, store), images=CardImages("", 3_600))
    memory = _memory_ports(store)
    if memory is not None:  # the outbox's ledger beside the in-memory stores, not in a table
        built = replace(built, send_ledger=memory.send_ledger)
    return _delivering_at_once(replace(built, **overrides) if overrides else built, overrides)


def _delivering_at_once(built: Services, overrides: dict[str, Any]) -> Services:
    """`built` with an in-memory outbox queue that delivers through `built` itself (unless one is given)."""
    if "notification_queue" in overrides:
        return built
    queue = MemoryNotificationQueue()
    built = replace(built, notification_queue=queue)
    deliver_at_once(queue, lambda: built)
    return built


def dynamo_services(**overrides: Any) -> Services:
    """The adapters `app.bootstrap` builds, with `overrides` (a staged store, a fixed clock) on top."""
    built = bootstrap.services(settings=get_settings())
    return _delivering_at_once(replace(built, **overrides) if overrides else built, overrides)
