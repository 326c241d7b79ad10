"""A Web Push service inside the local stack that decrypts each message as a browser would.

Chromium without a push service (headless, or no network) cannot subscribe for real, so the local stack
plays both halves of the browser's side:

- ``POST /_local/push/subscriptions`` (body ``{"applicationServerKey": "<VAPID public key>"}``, optional)
  makes a P-256 key pair and a 16-byte auth secret, keeps the private half, and answers the
  PushSubscription JSON a browser's ``subscription.toJSON()`` gives: ``{endpoint, expirationTime: null,
  keys: {p256dh, auth}}``, with the endpoint at this stack (``/_local/push/endpoints/<id>``).
- ``POST /_local/push/endpoints/<id>`` is the push service (RFC 8030): it checks the VAPID header (RFC
  8292: an ES256 JWT whose ``aud`` is this origin, ``exp`` within 24 hours and a ``sub``, signed by the
  key ``k``, which must be the application server key subscribed with), decrypts the body (RFC 8291,
  ``aes128gcm``) with the subscription's private key and auth secret, keeps it and answers 201.
- ``DELETE /_local/push/subscriptions/<id>`` unsubscribes: the endpoint then answers 410 Gone, as a real
  push service does for a subscription the browser dropped (the app must remove it).
- ``GET /_local/push`` lists what arrived, decrypted, newest first (``?subscription=<id>`` for one).

Only this developer tool decrypts: the product only ever encrypts (``app.aws.web_push``).
"""

from __future__ import annotations

import base64
import json
import logging
import os
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs, urlsplit

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils

from local_stack.responses import HttpResponse, problem

LOG = logging.getLogger("local_stack.push")

PUSH_PATH = "/_local/push"
KEPT = 200
MAX_JWT_LIFETIME = 24 * 3600


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _json(status: int, body: Any, headers: Sequence[tuple[str, str]] = ()) -> HttpResponse:
    return HttpResponse(
        status,
        [("Content-Type", "application/json"), ("Cache-Control", "no-store"), *headers],
        json.dumps(body).encode("utf-8"),
    )


@dataclass
class LocalSubscription:
    subscription_id: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes
    application_server_key: str | None
    unsubscribed: bool = False

    @property
    def p256dh(self) -> str:
        return b64url(
            self.private_key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )


class VapidRefused(ValueError):
    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status


def verify_vapid(
    authorization: str, *, audience: str, expected_key: str | None, now: float
) -> dict[str, Any]:
    """The claims of a valid ``vapid t=<JWT>, k=<key>`` header (RFC 8292), else VapidRefused."""
    scheme, _, rest = authorization.strip().partition(" ")
    if scheme.lower() != "vapid":
        raise VapidRefused(401, "Authorization must use the vapid scheme (RFC 8292)")
    params = dict(part.strip().split("=", 1) for part in rest.split(",") if "=" in part)
    token, key = params.get("t", ""), params.get("k", "")
    if token.count(".") != 2 or not key:
        raise VapidRefused(401, "the vapid header needs t (a JWT) and k (the public key)")
    if expected_key is not None and key.rstrip("=") != expected_key.rstrip("="):
        raise VapidRefused(403, "k is not the application server key this subscription was made with")
    head, claims_part, signature_part = token.split(".")
    try:
        header = json.loads(unb64url(head))
        claims = json.loads(unb64url(claims_part))
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
        raw = unb64url(signature_part)
    except (ValueError, TypeError) as exc:
        raise VapidRefused(401, f"the vapid header cannot be read: {exc}") from None
    if header.get("alg") != "ES256" or len(raw) != 64:
        raise VapidRefused(401, "the JWT must be ES256 with a 64-byte signature")
    der = utils.encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        public.verify(der, f"{head}.{claims_part}".encode("ascii"), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise VapidRefused(401, "the JWT's signature does not verify with k") from None
    if claims.get("aud") != audience:
        raise VapidRefused(401, f"aud must be {audience}, not {claims.get('aud')!r}")
    exp = claims.get("exp")
    if not isinstance(exp, int) or not now < exp <= now + MAX_JWT_LIFETIME:
        raise VapidRefused(401, "exp must be in the next 24 hours")
    if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
        raise VapidRefused(401, "sub must be a mailto: or https: URL")
    return dict(claims)


@dataclass
class PushReceiver:
    """The local push service: subscriptions (with their private keys) and the messages decrypted."""

    base_url: str = ""
    kept: int = KEPT
    clock: Callable[[], float] = time.time
    #: Told one line per message decrypted (the local stack prints it as a ``[web-push]`` line).
    report: Callable[[str], None] | None = None
    _subscriptions: dict[str, LocalSubscription] = field(default_factory=dict, init=False)
    _messages: deque[dict[str, Any]] = field(init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False)

    def __post_init__(self) -> None:
        self._messages = deque(maxlen=self.kept)

    def endpoint(self, subscription_id: str) -> str:
        return f"{self.base_url}{PUSH_PATH}/endpoints/{subscription_id}"

    def subscribe(self, application_server_key: str | None = None) -> dict[str, Any]:
        """A new subscription, as ``PushSubscription.toJSON()`` gives it (and its ``id`` here)."""
        made = LocalSubscription(
            secrets.token_urlsafe(12), ec.generate_private_key(ec.SECP256R1()), os.urandom(16),
            application_server_key,
        )  # fmt: skip
        with self._lock:
            self._subscriptions[made.subscription_id] = made
        return {
            "id": made.subscription_id,
            "endpoint": self.endpoint(made.subscription_id),
            "expirationTime": None,
            "keys": {"p256dh": made.p256dh, "auth": b64url(made.auth)},
        }

    def unsubscribe(self, subscription_id: str) -> bool:
        with self._lock:
            found = self._subscriptions.get(subscription_id)
            if found is None:
                return False
            found.unsubscribed = True
            return True

    def messages(self, subscription_id: str | None = None) -> list[dict[str, Any]]:
        with self._lock:
            found = list(reversed(self._messages))
        return [m for m in found if subscription_id in (None, m["subscription_id"])]

    def receive(self, subscription_id: str, headers: Sequence[tuple[str, str]], body: bytes) -> HttpResponse:
        """One push from the application server, checked and decrypted as a push service and browser do."""
        import http_ece  # pywebpush's own dependency, as the product encrypts with it

        with self._lock:
            found = self._subscriptions.get(subscription_id)
        if found is None or found.unsubscribed:
            return problem(410, "Gone", "push_subscription_gone", "this subscription is gone")
        named = {name.lower(): value for name, value in headers}
        if "ttl" not in named or not named["ttl"].isdigit():
            return problem(400, "Bad Request", "ttl_required", "RFC 8030 requires a TTL header")
        if named.get("content-encoding", "").lower() != "aes128gcm":
            return problem(415, "Unsupported Media Type", "not_aes128gcm", "the body must be aes128gcm")
        parts = urlsplit(self.endpoint(subscription_id))
        try:
            claims = verify_vapid(
                named.get("authorization", ""),
                audience=f"{parts.scheme}://{parts.netloc}",
                expected_key=found.application_server_key,
                now=self.clock(),
            )
        except VapidRefused as refused:
            LOG.warning("push refused: %s", refused)
            title = "Unauthorized" if refused.status == 401 else "Forbidden"
            return problem(refused.status, title, "vapid_refused", str(refused))
        try:
            plain = http_ece.decrypt(
                body, private_key=found.private_key, auth_secret=found.auth, version="aes128gcm"
            )
        except Exception as exc:  # http_ece raises its own and cryptography's errors alike
            LOG.warning("push not decryptable: %s", exc)
            return problem(
                400, "Bad Request", "not_decryptable", f"the body does not decrypt: {type(exc).__name__}"
            )
        text = plain.decode("utf-8", "replace")
        try:
            payload: Any = json.loads(text)
        except ValueError:
            payload = text
        message = {
            "subscription_id": subscription_id,
            "received_at": datetime.fromtimestamp(self.clock(), UTC).isoformat(timespec="milliseconds"),
            "payload": payload,
            "ttl": int(named["ttl"]),
            "topic": named.get("topic"),
            "urgency": named.get("urgency"),
            "vapid": {"sub": claims.get("sub"), "aud": claims.get("aud"), "exp": claims.get("exp")},
        }
        with self._lock:
            self._messages.append(message)
        LOG.info("push to %s: %s", subscription_id, text)
        if self.report is not None:
            self.report(f"subscription={subscription_id} ttl={named['ttl']} {text}")
        return HttpResponse(201, [("Location", f"{PUSH_PATH}/messages/{len(self._messages)}")], b"")

    def handle(
        self, method: str, path: str, query: str, headers: Sequence[tuple[str, str]], body: bytes
    ) -> HttpResponse:
        """Every request under ``/_local/push``."""
        rest = path[len(PUSH_PATH) :].strip("/")
        if method in ("GET", "HEAD") and not rest:
            asked_for = parse_qs(query).get("subscription")
            wanted = asked_for[0] if asked_for else None
            return _json(200, self.messages(wanted))
        if method == "POST" and rest == "subscriptions":
            try:
                asked = json.loads(body or b"{}")
            except ValueError:
                return problem(400, "Bad Request", "invalid_json", "the body is not JSON")
            key = asked.get("applicationServerKey") if isinstance(asked, dict) else None
            made = self.subscribe(key if isinstance(key, str) and key else None)
            return _json(201, made, [("Location", made["endpoint"])])
        kind, _, subscription_id = rest.partition("/")
        if method == "DELETE" and kind == "subscriptions" and subscription_id:
            if self.unsubscribe(subscription_id):
                return HttpResponse(204, [], b"")
            return problem(404, "Not Found", "push_subscription_not_found", "no such local subscription")
        if method == "POST" and kind == "endpoints" and subscription_id:
            return self.receive(subscription_id, headers, body)
        return problem(404, "Not Found", "route_not_found", f"no local push route {method} {path}")


def generate_vapid_key() -> str:
    """A VAPID private key as the SSM parameter holds it: the raw 32-byte P-256 scalar, base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))
