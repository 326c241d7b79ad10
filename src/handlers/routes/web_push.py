"""Web Push: the VAPID key browsers subscribe with, and each player's browser subscriptions."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Path
from aws_lambda_powertools.event_handler.request import Request

from app.notify.web_push.browsers import WebPush
from app.notify.web_push.schemas import (
    SUBSCRIPTION_ID_PATTERN,
    PutWebPushSubscription,
    WebPushKey,
    WebPushSubscriptionOut,
    WebPushSubscriptions,
    subscription_out,
)
from handlers.http import Adapters, Caller, created, done, json_response, no_content, put_response
from handlers.problems import answers
from handlers.route_table import Endpoints

endpoint = Endpoints()
SubscriptionId = Annotated[str, Path(pattern=SUBSCRIPTION_ID_PATTERN)]


@endpoint(
    "getWebPushKey",
    summary="The VAPID public key to subscribe with (501 web_push_not_configured when Web Push is off)",
    **answers({200: {"description": "The application server key"}}, 501, 503),
)
def get_web_push_key(adapters: Adapters) -> Response[WebPushKey]:
    return json_response(WebPushKey(public_key=WebPush.of(adapters).public_key()))


@endpoint(
    "storeWebPushSubscription",
    summary="Store this browser's PushSubscription (as PushSubscription.toJSON() gives it)",
    **answers(
        {
            **created("Stored", "/players/me/web-push/{subscription_id}"),
            200: {"description": "Replaced"},
        },
        400,
        401,
        404,
        409,
        413,
        415,
        422,
        501,
    ),
)
def put_web_push_subscription(
    request: Request,
    subscription_id: SubscriptionId,
    body: PutWebPushSubscription,
    player: Caller,
    adapters: Adapters,
) -> Response[WebPushSubscriptionOut]:
    stored, is_new = WebPush.of(adapters).subscribe(
        player,
        subscription_id,
        endpoint=body.endpoint,
        p256dh=body.keys.p256dh,
        auth=body.keys.auth,
        expiration_time=body.expiration_time,
        now=adapters.clock(),
    )
    where = f"/players/me/web-push/{subscription_id}"
    return put_response(request, subscription_out(stored), is_new=is_new, where=where)


@endpoint(
    "listWebPushSubscriptions",
    summary="Your browsers' push subscriptions",
    **answers({200: {"description": "Your subscriptions"}}, 401),
)
def get_web_push_subscriptions(player: Caller, adapters: Adapters) -> Response[WebPushSubscriptions]:
    found = WebPush.of(adapters).subscriptions(player)
    return json_response(WebPushSubscriptions(subscriptions=[subscription_out(s) for s in found]))


@endpoint(
    "removeWebPushSubscription",
    summary="Forget a browser's push subscription",
    **answers(no_content("Forgotten"), 401, 404),
)
def delete_web_push_subscription(
    subscription_id: SubscriptionId, player: Caller, adapters: Adapters
) -> Response[None]:
    WebPush.of(adapters).unsubscribe(player, subscription_id)
    return done()
