"""The composition root: the one place that builds adapters, once per execution environment.

Handlers ask here for the `Services` of a request; use cases see only the protocols on it (and
CardImages, over the S3 object store built here). Boto3 clients stay lazy (built on first use, never
at import), so importing this module costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, Generic, TypeVar, cast

from app.aws import clients as aws_clients
from app.aws import snapstart
from app.aws.dynamodb.games import DynamoGameStore
from app.aws.dynamodb.players import DynamoPlayerStore
from app.aws.dynamodb.sessions import DynamoSessionStore
from app.aws.s3 import S3ObjectStore
from app.core.deadline import DEFAULT_SECONDS, Deadline
from app.core.settings import AppSettings, get_settings
from app.decks.card_images import CardImages
from app.services import Services

T = TypeVar("T")


class _OnFirstUse(Generic[T]):
    """Stands for an adapter whose module is imported, and the adapter built, when it is first used.

    Most requests are moves and views: importing the mail, push, webhook and deck adapters (and the
    feature modules they bring along) for them would be a fifth of every cold start for nothing.
    """

    __slots__ = ("_build", "_built")

    def __init__(self, build: Callable[[], T]) -> None:
        self._build = build
        self._built: T | None = None

    def __getattr__(self, name: str) -> Any:
        if self._built is None:
            self._built = self._build()
        return getattr(self._built, name)

    def __repr__(self) -> str:
        return f"on first use: {self._built!r}" if self._built is not None else "not built yet"


def _on_first_use(build: Callable[[], T]) -> T:
    return cast(T, _OnFirstUse(build))


def _emails(table: str) -> Any:
    from app.aws.dynamodb.email import DynamoEmailStore

    return DynamoEmailStore(table)


def _inbox(table: str) -> Any:
    from app.aws.dynamodb.inbox import DynamoInboxStore

    return DynamoInboxStore(table)


def _webhooks(table: str) -> Any:
    from app.aws.dynamodb.webhooks import DynamoWebhookStore

    return DynamoWebhookStore(table)


def _feed(table: str) -> Any:
    from app.aws.dynamodb.feed import DynamoFeedStore

    return DynamoFeedStore(table)


def _talk(table: str) -> Any:
    from app.aws.dynamodb.talk import DynamoTalkStore

    return DynamoTalkStore(table)


def _decks(table: str) -> Any:
    from app.aws.dynamodb.decks import DynamoDeckStore

    return DynamoDeckStore(table)


def _notifications(table: str) -> Any:
    from app.aws.dynamodb.notify import DynamoNotificationStore

    return DynamoNotificationStore(table)


def _push(settings: AppSettings) -> Any:
    from app.aws.sns import SnsNotifier
    from app.notify.devices.channels import Platform

    return SnsNotifier(
        settings.nudge_topic_arn,
        platform_applications={
            Platform.APNS: settings.apns_platform_application_arn,
            Platform.APNS_SANDBOX: settings.apns_sandbox_platform_application_arn,
            Platform.FCM: settings.fcm_platform_application_arn,
        },
    )


def _mailer(settings: AppSettings) -> Any:
    from app.aws.ses import SesMailer

    return SesMailer(settings.email_from, settings.email_configuration_set)


def _webhook_queue(settings: AppSettings) -> Any:
    from app.aws.sqs import SqsWebhookQueue

    return SqsWebhookQueue(settings.webhook_queue_url, settings.webhook_dlq_url)


def _notification_queue(settings: AppSettings) -> Any:
    from app.aws.sqs import SqsNotificationQueue
    from app.notify.preferences import Channel

    return SqsNotificationQueue(
        {
            Channel.EMAIL: (settings.email_queue_url, settings.email_dlq_url),
            Channel.WEB_PUSH: (settings.web_push_queue_url, settings.web_push_dlq_url),
            Channel.DEVICE_PUSH: (settings.device_push_queue_url, settings.device_push_dlq_url),
        }
    )


def _send_ledger(table: str) -> Any:
    from app.aws.dynamodb.send_ledger import DynamoSendLedger

    return DynamoSendLedger(table)


def _mail_ledger(table: str) -> Any:
    from app.aws.dynamodb.mail_ledger import DynamoMailLedger

    return DynamoMailLedger(table)


def _digests(table: str) -> Any:
    from app.aws.dynamodb.mail_ledger import DynamoDigestIndex

    return DynamoDigestIndex(table)


def _app_grants(table: str) -> Any:
    from app.aws.dynamodb.app_grants import DynamoAppGrantStore

    return DynamoAppGrantStore(table)


def _oauth_codes(table: str) -> Any:
    from app.aws.dynamodb.app_grants import DynamoCodeStore

    return DynamoCodeStore(table)


def _personal_tokens(table: str) -> Any:
    from app.aws.dynamodb.personal_tokens import DynamoPersonalTokenStore

    return DynamoPersonalTokenStore(table)


def _web_push_subscriptions(table: str) -> Any:
    from app.aws.dynamodb.web_push import DynamoWebPushStore

    return DynamoWebPushStore(table)


def _web_push(settings: AppSettings) -> Any:
    from app.aws.web_push import PywebpushSender, SsmVapidKey, vapid_subject

    return PywebpushSender(
        SsmVapidKey(settings.web_push_vapid_parameter),
        vapid_subject(settings.web_push_subject, settings.email_from, settings.web_base_url),
        allow_loopback_http=settings.webhook_allow_loopback_http,
        refused_loopback_ports=settings.refused_loopback_ports,
        timeout_seconds=settings.notify_send_timeout_seconds,
    )


def _live(table: str) -> Any:
    from app.aws.dynamodb.live import DynamoLiveStore

    return DynamoLiveStore(table)


def _live_queue(settings: AppSettings) -> Any:
    from app.aws.sqs import SqsLiveQueue

    return SqsLiveQueue(settings.live_queue_url)


def _live_socket(settings: AppSettings) -> Any:
    from app.aws.live_socket import ApiGatewayLiveSocket

    return ApiGatewayLiveSocket(settings.live_endpoint_url)


@cache
def _services_for(settings: AppSettings, generation: int) -> Services:
    table = settings.table_name
    return Services(
        settings=settings,
        # What every move and view uses (the token check, the game), built now.
        games=DynamoGameStore(table),
        players=DynamoPlayerStore(table),
        sessions=DynamoSessionStore(table),
        # One per configuration for the whole environment: its memo of signed links outlives a request.
        images=CardImages(
            settings.card_bucket,
            settings.image_url_ttl_seconds,
            S3ObjectStore(),
            window_seconds=settings.image_url_window_seconds,
            base_url=settings.card_image_base_url,
        ),
        emails=_on_first_use(lambda: _emails(table)),
        inbox=_on_first_use(lambda: _inbox(table)),
        webhooks=_on_first_use(lambda: _webhooks(table)),
        feed=_on_first_use(lambda: _feed(table)),
        decks=_on_first_use(lambda: _decks(table)),
        notifications=_on_first_use(lambda: _notifications(table)),
        push=_on_first_use(lambda: _push(settings)),
        mailer=_on_first_use(lambda: _mailer(settings)),
        webhook_queue=_on_first_use(lambda: _webhook_queue(settings)),
        # The email channel's send claims and suppressed addresses, and the daily digest's index.
        mail_ledger=_on_first_use(lambda: _mail_ledger(table)),
        digests=_on_first_use(lambda: _digests(table)),
        web_push_subscriptions=_on_first_use(lambda: _web_push_subscriptions(table)),
        web_push=_on_first_use(lambda: _web_push(settings)),
        notification_queue=_on_first_use(lambda: _notification_queue(settings)),
        send_ledger=_on_first_use(lambda: _send_ledger(table)),
        personal_tokens=_on_first_use(lambda: _personal_tokens(table)),
        talk=_on_first_use(lambda: _talk(table)),
        live=_on_first_use(lambda: _live(table)),
        live_queue=_on_first_use(lambda: _live_queue(settings)),
        live_socket=_on_first_use(lambda: _live_socket(settings)),
        app_grants=_on_first_use(lambda: _app_grants(table)),
        oauth_codes=_on_first_use(lambda: _oauth_codes(table)),
    )


def card_images_in(bucket: str) -> CardImages:
    """Card images of the bucket an S3 event names (the ingest is told, not configured)."""
    return CardImages(bucket, get_settings().image_url_ttl_seconds, S3ObjectStore())


def services(deadline: Deadline | None = None, settings: AppSettings | None = None) -> Services:
    """The adapters of this environment, for one request that may retry until `deadline`."""
    built = _services_for(settings or get_settings(), aws_clients.generation())
    return built.until(deadline or Deadline.after(DEFAULT_SECONDS))


def prepare_for_snapshots(warm_up: Callable[[], object] | None = None) -> bool:
    """Under Lambda SnapStart: `warm_up` before the snapshot, fresh seeds and clients after each restore
    (app.aws.snapstart). Registers nothing outside Lambda; says whether it registered."""
    return snapstart.install(warm_up)
