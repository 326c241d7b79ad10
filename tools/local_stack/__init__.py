"""The embedded local stack: a developer tool that runs the SAM stack of ``template.yaml`` in one process.

``python -m local_stack serve`` starts a moto server (DynamoDB, S3, SNS, SQS, SES), creates the template's
table, bucket and topic in it, seeds generated card art (tools/card_art), and serves the API's Lambda
handler over HTTP as API Gateway would. ``python -m local_stack invoke`` runs one function of the
template against it.

It lives under ``tools/``, outside every function's ``CodeUri``, so it never ships in a Lambda package, and
nothing under ``src/`` imports it.
"""

from __future__ import annotations

from pathlib import Path

#: The repository root (``tools/local_stack/__init__.py`` → three levels up), where ``template.yaml`` lives.
REPO_ROOT = Path(__file__).resolve().parents[2]

#: The state file ``serve`` writes so that ``invoke`` finds the running twin.
DEFAULT_STATE_FILE = REPO_ROOT / ".dixit-local.json"

#: Physical names of the template's resources in the local twin.
LOCAL_NAMES = {
    "GameTable": "dixit-games-local",
    "CardBucket": "dixit-cards-local",
    "NudgeTopic": "dixit-nudges-local",
    "WebhookQueue": "dixit-webhooks-local",
    "WebhookDeadLetterQueue": "dixit-webhooks-dlq-local",
    "NotifyFailureQueue": "dixit-notify-failures-local",
    "EmailQueue": "dixit-notify-email-local",
    "EmailDeadLetterQueue": "dixit-notify-email-dlq-local",
    "WebPushQueue": "dixit-notify-web-push-local",
    "WebPushDeadLetterQueue": "dixit-notify-web-push-dlq-local",
    "DevicePushQueue": "dixit-notify-device-push-local",
    "DevicePushDeadLetterQueue": "dixit-notify-device-push-dlq-local",
    "EmailConfigurationSet": "dixit-mail-local",
}

REGION = "us-east-1"
