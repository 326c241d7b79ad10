"""Webhooks (subscribe with the secret shown once, health, delete, rotate, deliveries) and the event feed.

The webhook POSTs take no Idempotency-Key: their answers carry a signing secret, which an idempotency
record must not keep.
"""

from __future__ import annotations

from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query
from aws_lambda_powertools.event_handler.request import Request

from app.feed import feed
from app.webhooks import subscriptions as webhooks
from app.webhooks.schemas import (
    CreateWebhook,
    DeliveryList,
    EventFeed,
    SecretRotated,
    WebhookCreated,
    WebhookList,
    WebhookOut,
    attempt_out,
    webhook_out,
)
from handlers.http import (
    Adapters,
    Caller,
    check_game_id,
    created,
    done,
    json_response,
    no_content,
    no_store_response,
)
from handlers.problems import answers
from handlers.route_table import Endpoints

endpoint = Endpoints()


@endpoint(
    "createWebhook",
    summary="Subscribe a URL to your games' events (the signing secret is shown once)",
    **answers(
        created("The webhook and its signing secret", "/players/me/webhooks/{webhook_id}"),
        400,
        401,
        409,
        413,
        415,
        422,
    ),
)
def create(
    request: Request, body: CreateWebhook, player: Caller, adapters: Adapters
) -> Response[WebhookCreated]:
    record, secret = webhooks.subscribe(adapters, player, body.url, body.events)
    answer = WebhookCreated(**webhook_out(record).model_dump(), secret=secret)
    # The secret is shown once: no cache may keep it.
    return no_store_response(request, answer, 201, f"/players/me/webhooks/{record.webhook_id}")


@endpoint(
    "getWebhook",
    summary="One of your webhooks and its health",
    **answers({200: {"description": "The webhook (never its secret)"}}, 401, 404),
)
def get_one(webhook_id: str, player: Caller, adapters: Adapters) -> Response[WebhookOut]:
    return json_response(webhook_out(webhooks.webhook_of(adapters, player, webhook_id)))


@endpoint(
    "listWebhooks",
    summary="Your webhooks and their health",
    **answers({200: {"description": "Your webhooks, oldest first"}}, 401),
)
def list_all(player: Caller, adapters: Adapters) -> Response[WebhookList]:
    records = webhooks.webhooks_of(adapters, player)
    return json_response(WebhookList(webhooks=[webhook_out(r) for r in records]))


@endpoint(
    "deleteWebhook",
    summary="Remove a webhook",
    **answers(no_content("Removed"), 401, 404),
)
def delete(webhook_id: str, player: Caller, adapters: Adapters) -> Response[Any]:
    webhooks.unsubscribe(adapters, player, webhook_id)
    return done()


@endpoint(
    "rotateWebhookSecret",
    summary="Replace a webhook's signing secret (the new one is shown once)",
    **answers({200: {"description": "The new signing secret"}}, 401, 404),
)
def rotate(webhook_id: str, player: Caller, adapters: Adapters) -> Response[SecretRotated]:
    record, secret = webhooks.rotate_secret(adapters, player, webhook_id)
    return json_response(SecretRotated(webhook_id=record.webhook_id, secret=secret))


@endpoint(
    "listWebhookDeliveries",
    summary="A webhook's recent delivery attempts, newest first",
    **answers({200: {"description": "Recent attempts"}}, 401, 404),
)
def deliveries(webhook_id: str, player: Caller, adapters: Adapters) -> Response[DeliveryList]:
    attempts = webhooks.recent_attempts(adapters, player, webhook_id)
    return json_response(DeliveryList(deliveries=[attempt_out(a) for a in attempts]))


@endpoint(
    "listGameEvents",
    summary="The game's events as you may see them, oldest first, from a cursor",
    **answers({200: {"description": "A page of your copy of the game's events"}}, 401, 403, 404),
)
def events(
    game_id: str,
    player: Caller,
    adapters: Adapters,
    after: Annotated[
        # 38 characters: a message's position ("<version>.<slot>.<message id>", app.feed.feed)
        str | None, Query(max_length=40, description="A cursor from an earlier page; none for the start")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=feed.FEED_PAGE_MAX)] = feed.FEED_PAGE_DEFAULT,
) -> Response[EventFeed]:
    page = feed.feed_of(adapters, player, check_game_id(game_id), after=after, limit=limit)
    return json_response(EventFeed(events=page.events, cursor=page.cursor, has_more=page.has_more))
