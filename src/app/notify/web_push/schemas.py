"""Request and response bodies of the Web Push routes (a browser's PushSubscription, the VAPID key)."""

from __future__ import annotations

from pydantic import ConfigDict, Field

from app.core.examples import STAMP
from app.core.schema_base import Request, Schema, doc
from app.notify.web_push.ports import WebPushSubscription

SUBSCRIPTION_ID_PATTERN = r"^[A-Za-z0-9_.:-]{1,64}$"
ENDPOINT = "https://fcm.googleapis.com/fcm/send/dQw4w9WgXcQ:APA91bH"
P256DH = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
AUTH = "tBHItJI5svbpez7KI4CCXg"
KEY_PATTERN = r"^[A-Za-z0-9_-]+={0,2}$"


class PushKeys(Request):
    p256dh: str = doc(
        "The browser's P-256 public key, base64url (65 bytes)", P256DH, min_length=86, max_length=88,
        pattern=KEY_PATTERN,
    )  # fmt: skip
    auth: str = doc(
        "The subscription's authentication secret, base64url (16 bytes)", AUTH, min_length=22,
        max_length=24, pattern=KEY_PATTERN,
    )  # fmt: skip


class PutWebPushSubscription(Request):
    """What `PushSubscription.toJSON()` gives, as the browser gives it."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)

    endpoint: str = doc(
        "The push service URL of this subscription (https)", ENDPOINT, min_length=9, max_length=2048
    )
    keys: PushKeys = doc("The keys the browser encrypts with", {"p256dh": P256DH, "auth": AUTH})
    expiration_time: int | None = Field(
        default=None,
        alias="expirationTime",
        ge=0,
        description="When the subscription expires (epoch milliseconds), or null",
        examples=[None],
    )


class WebPushSubscriptionOut(Schema):
    subscription_id: str = doc("The id the client chose for this subscription", "browser-1")
    endpoint: str = doc("Its push service URL", ENDPOINT)
    expiration_time: int | None = doc("When it expires (epoch milliseconds), or null", None)
    created_at: str = doc("When it was first stored", STAMP)
    failures: int = doc("Its push service's failures in a row (timeouts, errors); 0 when healthy", 0)
    last_failure: str | None = doc("When the last failure was and what it was, or null", None)
    disabled_at: str | None = doc(
        "When pushes to it stopped after too many failures in a row, or null; subscribe again to resume",
        None,
    )


def subscription_out(subscription: WebPushSubscription) -> WebPushSubscriptionOut:
    """A browser subscription as its owner sees it (never its keys)."""
    return WebPushSubscriptionOut(
        subscription_id=subscription.subscription_id,
        endpoint=subscription.endpoint,
        expiration_time=subscription.expiration_time,
        created_at=subscription.created_at,
        failures=subscription.failures,
        last_failure=subscription.last_failure,
        disabled_at=subscription.disabled_at,
    )


class WebPushSubscriptions(Schema):
    subscriptions: list[WebPushSubscriptionOut] = doc(
        "The caller's browser subscriptions",
        [
            {
                "subscription_id": "browser-1",
                "endpoint": ENDPOINT,
                "expiration_time": None,
                "created_at": STAMP,
                "failures": 0,
                "last_failure": None,
                "disabled_at": None,
            }
        ],
    )


class WebPushKey(Schema):
    public_key: str = doc(
        "The VAPID application server key (base64url P-256 point) to pass to pushManager.subscribe",
        P256DH,
    )
