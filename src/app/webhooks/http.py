"""One webhook POST to a vetted address: connect to the pinned IP, speak TLS and HTTP to the real host."""

from __future__ import annotations

import http.client
import socket
import ssl
import time
from dataclasses import dataclass

from app.webhooks.ssrf import Target

_MAX_RESPONSE_BYTES = 4_096  # the body is never used; reading a little lets the connection close cleanly


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS to `address`, while Host and SNI (and certificate checks) name the URL's own host."""

    def __init__(self, target: Target, timeout: float, context: ssl.SSLContext) -> None:
        super().__init__(target.host, target.port, timeout=timeout, context=context)
        self._address = target.address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """Plain HTTP to the pinned address (the local stack's loopback receivers only)."""

    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self._address = target.address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


@dataclass(frozen=True, slots=True)
class HttpOutcome:
    ok: bool
    status: str  # the HTTP status, or "timeout" / "connection_error" / "tls_error"
    latency_ms: int


def post(
    target: Target,
    body: bytes,
    headers: dict[str, str],
    timeout: float,
    tls: ssl.SSLContext | None = None,
) -> HttpOutcome:
    """POST `body`; a 2xx is a success. Redirects are not followed (they would skip the SSRF check).

    `tls` defaults to the system's trust store with hostname checks.
    """
    started = time.monotonic()
    connection: http.client.HTTPConnection = (
        _PinnedHTTPSConnection(target, timeout, tls or ssl.create_default_context())
        if target.scheme == "https"
        else _PinnedHTTPConnection(target, timeout)
    )

    def elapsed() -> int:
        return int((time.monotonic() - started) * 1000)

    try:
        connection.request("POST", target.path, body=body, headers=headers)
        response = connection.getresponse()
        response.read(_MAX_RESPONSE_BYTES)
        return HttpOutcome(200 <= response.status < 300, str(response.status), elapsed())
    except TimeoutError:
        return HttpOutcome(False, "timeout", elapsed())
    except ssl.SSLError:
        return HttpOutcome(False, "tls_error", elapsed())
    except (OSError, http.client.HTTPException):
        return HttpOutcome(False, "connection_error", elapsed())
    finally:
        connection.close()
