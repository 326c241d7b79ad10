from __future__ import annotations

from typing import Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.router import APIGatewayRouter

from app import webhooks
from app.webhook_schemas import (
    CreateWebhook,
    DeliveryList,
    SecretRotated,
    WebhookCreated,
    WebhookList,
    attempt_out,
    webhook_out,
)
from handlers.http import BEARER, caller, json_response, services

router = APIGatewayRouter()
TAGS = ["webhooks"]


@router.post(
    "/players/me/webhooks", tags=TAGS, summary="Subscribe a URL to your games' events", security=BEARER
)
def create(body: CreateWebhook) -> Response[WebhookCreated]:
    record, secret = webhooks.subscribe(services(router), caller(router), body.url, body.events)
    created = WebhookCreated(**webhook_out(record).model_dump(), secret=secret)
    return json_response(created, status=201)


@router.get("/players/me/webhooks", tags=TAGS, summary="Your webhooks and their health", security=BEARER)
def list_all() -> Response[WebhookList]:
    records = webhooks.webhooks_of(services(router), caller(router))
    return json_response(WebhookList(webhooks=[webhook_out(r) for r in records]))


@router.delete("/players/me/webhooks/<webhook_id>", tags=TAGS, summary="Remove a webhook", security=BEARER)
def delete(webhook_id: str) -> Response[Any]:
    webhooks.unsubscribe(services(router), caller(router), webhook_id)
    return Response(status_code=204, body=None)


@router.post(
    "/players/me/webhooks/<webhook_id>/rotate-secret",
    tags=TAGS,
    summary="Replace a webhook's signing secret (the new one is shown once)",
    security=BEARER,
)
def rotate(webhook_id: str) -> Response[SecretRotated]:
    record, secret = webhooks.rotate_secret(services(router), caller(router), webhook_id)
    return json_response(SecretRotated(webhook_id=record.webhook_id, secret=secret))


@router.get(
    "/players/me/webhooks/<webhook_id>/deliveries",
    tags=TAGS,
    summary="A webhook's recent delivery attempts, newest first",
    security=BEARER,
)
def deliveries(webhook_id: str) -> Response[DeliveryList]:
    attempts = webhooks.recent_attempts(services(router), caller(router), webhook_id)
    return json_response(DeliveryList(deliveries=[attempt_out(a) for a in attempts]))
