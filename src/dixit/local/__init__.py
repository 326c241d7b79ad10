"""The embedded local stack: a developer tool that runs the SAM stack of ``template.yaml`` in one process.

``python -m dixit.local serve`` starts a moto server (DynamoDB, S3, SNS, SQS), creates the template's
table, bucket and topic in it, seeds placeholder card art, and serves the API's Lambda handler over HTTP
as API Gateway would. ``python -m dixit.local invoke`` runs one function of the template against it.

This is the one part of the ``dixit`` package allowed to import boto3 and moto; it never ships in a
Lambda's logic and the rules core never imports it.
"""

from __future__ import annotations

from pathlib import Path

#: The repository root (``src/dixit/local/__init__.py`` → four levels up), where ``template.yaml`` lives.
REPO_ROOT = Path(__file__).resolve().parents[3]

#: The state file ``serve`` writes so that ``invoke`` finds the running twin.
DEFAULT_STATE_FILE = REPO_ROOT / ".dixit-local.json"

#: Physical names of the template's resources in the local twin.
LOCAL_NAMES = {
    "GameTable": "dixit-games-local",
    "CardBucket": "dixit-cards-local",
    "NudgeTopic": "dixit-nudges-local",
}

REGION = "us-east-1"
