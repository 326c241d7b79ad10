"""The composition root: the one place that builds adapters, once per execution environment.

Handlers ask here for the `Services` of a request; use cases see only the protocols on it (and
CardImages, over the S3 object store built here). Boto3 clients stay lazy (built on first use, never
at import), so importing this module costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from app.aws import clients as aws_clients
from app.aws import snapstart
from app.aws.dynamodb.decks import DynamoDeckStore
from app.aws.dynamodb.email import DynamoEmailStore
from app.aws.dynamodb.feed import DynamoFeedStore
from app.aws.dynamodb.games import DynamoGameStore
from app.aws.dynamodb.inbox import DynamoInboxStore
from app.aws.dynamodb.mail_ledger import DynamoDigestIndex, DynamoMailLedger
from app.aws.dynamodb.notify import DynamoNotificationStore
from app.aws.dynamodb.players import DynamoPlayerStore
from app.aws.dynamodb.sessions import DynamoSessionStore
from app.aws.dynamodb.web_push import DynamoWebPushStore
from app.aws.dynamodb.webhooks import DynamoWebhookStore
from app.aws.s3 import S3ObjectStore
from app.aws.ses import SesMailer
from app.aws.sns import SnsNotifier
from app.aws.sqs import SqsWebhookQueue
from app.aws.web_push import PywebpushSender, SsmVapidKey, vapid_subject
from app.core.deadline import DEFAULT_SECONDS, Deadline
from app.core.services import Services
from app.core.settings import AppSettings, get_settings
from app.decks.card_images import CardImages
from app.notify.channels import Platform


@cache
def _services_for(settings: AppSettings, generation: int) -> Services:
    table = settings.table_name
    return Services(
        settings=settings,
        games=DynamoGameStore(table),
        players=DynamoPlayerStore(table),
        sessions=DynamoSessionStore(table),
        emails=DynamoEmailStore(table),
        inbox=DynamoInboxStore(table),
        webhooks=DynamoWebhookStore(table),
        feed=DynamoFeedStore(table),
        decks=DynamoDeckStore(table),
        notifications=DynamoNotificationStore(table),
        push=SnsNotifier(
            settings.nudge_topic_arn,
            platform_applications={
                Platform.APNS: settings.apns_platform_application_arn,
                Platform.APNS_SANDBOX: settings.apns_sandbox_platform_application_arn,
                Platform.FCM: settings.fcm_platform_application_arn,
            },
        ),
        mailer=SesMailer(settings.email_from, settings.email_configuration_set),
        webhook_queue=SqsWebhookQueue(settings.webhook_queue_url, settings.webhook_dlq_url),
        # One per configuration for the whole environment: its memo of signed links outlives a request.
        images=CardImages(
            settings.card_bucket,
            settings.image_url_ttl_seconds,
            S3ObjectStore(),
            window_seconds=settings.image_url_window_seconds,
            base_url=settings.card_image_base_url,
        ),
        mail_ledger=DynamoMailLedger(table),
        digests=DynamoDigestIndex(table),
        web_push_subscriptions=DynamoWebPushStore(table),
        web_push=PywebpushSender(
            SsmVapidKey(settings.web_push_vapid_parameter),
            vapid_subject(settings.web_push_subject, settings.email_from, settings.web_base_url),
            allow_loopback_http=settings.webhook_allow_loopback_http,
            timeout_seconds=settings.webhook_timeout_seconds,
        ),
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
