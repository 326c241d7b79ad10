"""Web Push to a browser's push service: the VAPID key from SSM, pywebpush's encryption, a pinned POST.

- The VAPID private key (raw P-256, base64url: what `vapid --gen` and the local stack make) is an SSM
  SecureString parameter named by `WEB_PUSH_VAPID_PARAMETER`, read on first use and kept for the life of
  the execution environment. It is never in the repository or the template.
- The message is encrypted for the subscription's keys by pywebpush (`WebPusher.encode`: RFC 8291 with
  the aes128gcm content coding of RFC 8188) and signed by py_vapid (RFC 8292: `Authorization: vapid
  t=<JWT>, k=<public key>`).
- The POST does not go through `pywebpush.webpush` (requests, resolving the host itself): it goes to the
  address `app.webhooks.ssrf.vet` resolved and judged, as a webhook delivery does, so a push endpoint
  cannot point (or be re-pointed by DNS) inside the network.

pywebpush imports aiohttp and requests, and py_vapid cryptography: all are imported on the first push,
never when the API function starts. They come from DependenciesLayer (template.yaml), at the pinned versions.
"""

from __future__ import annotations

import base64
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from botocore.exceptions import ClientError

from app.aws import clients
from app.core.errors import StoreUnavailable
from app.core.telemetry import logger
from app.notify.web_push.ports import LOCAL_RECEIVER_PATH, PushAttempt, PushResult, WebPushSubscription
from app.webhooks import http
from app.webhooks.ssrf import UnsafeUrl, vet

# RFC 8292 §2: a JWT valid for at most 24 hours; 12 leaves room for clock skew at the push service.
JWT_LIFETIME_SECONDS = 12 * 3600
GONE_STATUSES = frozenset({"404", "410"})


def vapid_subject(subject: str, email_from: str, web_base_url: str) -> str:
    """Who the push service can contact about our pushes (RFC 8292 `sub`): a mailto: or https: URL."""
    if subject:
        return subject
    if email_from:
        return f"mailto:{email_from}"
    if web_base_url.startswith("https://"):
        return web_base_url.rstrip("/")
    return "mailto:dixit@localhost.test"


class SsmVapidKey:
    """The VAPID private key from an SSM SecureString parameter, read once per execution environment."""

    def __init__(self, parameter_name: str, client: Any = None) -> None:
        self.parameter_name = parameter_name
        self._client = client
        self._value: str | None = None
        self._lock = threading.Lock()

    def __call__(self) -> str | None:
        """The key, or None when no parameter is named or it does not exist (Web Push is off)."""
        if not self.parameter_name:
            return None
        with self._lock:
            if self._value is None:
                self._value = self._read()
            return self._value

    def _read(self) -> str | None:
        client = self._client or clients.ssm()
        try:
            answer = client.get_parameter(Name=self.parameter_name, WithDecryption=True)
        except ClientError as error:
            code = error.response.get("Error", {}).get("Code", "")
            if code == "ParameterNotFound":
                logger.error(
                    "the VAPID key parameter does not exist", extra={"parameter": self.parameter_name}
                )
                return None
            raise StoreUnavailable("the Web Push key could not be read; try again shortly") from error
        return str(answer["Parameter"]["Value"]).strip() or None


class PywebpushSender:
    """A `WebPushSender`: one encrypted, VAPID-signed POST per subscription."""

    def __init__(
        self,
        private_key: Callable[[], str | None],
        subject: str,
        *,
        allow_loopback_http: bool = False,
        refused_loopback_ports: frozenset[int] = frozenset(),
        timeout_seconds: float = 2.5,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.private_key = private_key
        self.subject = subject
        self.allow_loopback_http = allow_loopback_http
        self.refused_loopback_ports = refused_loopback_ports
        self.timeout_seconds = timeout_seconds
        self.clock = clock
        self._vapid: Any = None
        self._vapid_of: str | None = None

    def _signer(self) -> Any:
        key = self.private_key()
        if key is None:
            return None
        if self._vapid is None or self._vapid_of != key:
            from py_vapid import Vapid  # cryptography: only once a key is used

            self._vapid, self._vapid_of = Vapid.from_string(private_key=key), key
        return self._vapid

    def public_key(self) -> str | None:
        signer = self._signer()
        if signer is None:
            return None
        from cryptography.hazmat.primitives import serialization

        point = signer.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return base64.urlsafe_b64encode(point).decode("ascii").rstrip("=")

    def send(self, subscription: WebPushSubscription, payload: bytes, *, ttl: int, topic: str) -> PushAttempt:
        try:
            target = vet(
                subscription.endpoint,
                allow_loopback_http=self.allow_loopback_http,
                refused_loopback_ports=_refused_for(subscription.endpoint, self.refused_loopback_ports),
            )
        except UnsafeUrl as unsafe:
            return PushAttempt(PushResult.REFUSED, unsafe.code)
        try:
            signer = self._signer()
        except StoreUnavailable:
            return PushAttempt(PushResult.FAILED, "vapid_key_unavailable")
        if signer is None:
            return PushAttempt(PushResult.FAILED, "web_push_not_configured")
        from pywebpush import WebPusher  # aiohttp and requests come with it: only when pushing

        info = {
            "endpoint": subscription.endpoint,
            "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
        }
        body = WebPusher(info).encode(payload, content_encoding="aes128gcm")["body"]
        parts = urlsplit(subscription.endpoint)
        claims = {
            "sub": self.subject,
            "aud": f"{parts.scheme}://{parts.netloc}",
            "exp": int(self.clock()) + JWT_LIFETIME_SECONDS,
        }
        headers = {
            **signer.sign(claims),
            "TTL": str(ttl),
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
            "Topic": topic,
            "Urgency": "normal",
        }
        outcome = http.post(target, bytes(body), headers, self.timeout_seconds)
        if outcome.ok:
            return PushAttempt(PushResult.SENT, outcome.status)
        if outcome.status in GONE_STATUSES:
            return PushAttempt(PushResult.GONE, outcome.status)
        return PushAttempt(PushResult.FAILED, outcome.status)


def _refused_for(endpoint: str, ports: frozenset[int]) -> frozenset[int]:
    """The local stack's own ports, except for its push receiver's path (app.notify.web_push.browsers)."""
    path = urlsplit(endpoint).path
    return frozenset() if path.startswith(LOCAL_RECEIVER_PATH) and ".." not in path else ports
