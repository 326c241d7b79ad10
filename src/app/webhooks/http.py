"""One webhook POST to a vetted address: connect to the pinned IP, speak TLS and HTTP to the real host.

The timeout bounds the whole delivery (connect, TLS, send, every read), not each socket call: a peer
trickling a byte at a time would otherwise hold the worker for as long as it likes. A watchdog shuts the
raw socket down when the time is up, which ends whatever call is blocked on it.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import ssl
import threading
import time

from app.webhooks.ssrf import Target
from dixit.lean_dataclass import dataclass

_MAX_RESPONSE_BYTES = 4_096  # the body is never used; reading a little lets the connection close cleanly


class _Deadline:
    """The delivery's end, and the raw socket to cut when it comes."""

    def __init__(self, seconds: float) -> None:
        self.ends_at = time.monotonic() + seconds
        self.expired = False
        self._sock: socket.socket | None = None
        self._lock = threading.Lock()

    def remaining(self) -> float:
        left = self.ends_at - time.monotonic()
        if left <= 0:
            raise TimeoutError("the delivery's deadline passed")
        return left

    def connect(self, address: str, port: int) -> socket.socket:
        sock = socket.create_connection((address, port), self.remaining())
        with self._lock:
            self._sock = sock
            if self.expired:  # the watchdog fired while we were connecting
                _cut(sock)
        return sock

    def expire(self) -> None:
        with self._lock:
            self.expired = True
            if self._sock is not None:
                _cut(self._sock)


def _cut(sock: socket.socket) -> None:
    # The raw socket's own shutdown, even under TLS: ends a blocked read in the other thread.
    with contextlib.suppress(OSError):  # already closed
        socket.socket.shutdown(sock, socket.SHUT_RDWR)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS to `address`, while Host and SNI (and certificate checks) name the URL's own host."""

    def __init__(self, target: Target, deadline: _Deadline, context: ssl.SSLContext) -> None:
        super().__init__(target.host, target.port, timeout=deadline.remaining(), context=context)
        self._address = target.address
        self._deadline = deadline

    def connect(self) -> None:
        sock = self._deadline.connect(self._address, self.port)
        sock.settimeout(self._deadline.remaining())
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """Plain HTTP to the pinned address (the local stack's loopback receivers only)."""

    def __init__(self, target: Target, deadline: _Deadline) -> None:
        super().__init__(target.host, target.port, timeout=deadline.remaining())
        self._address = target.address
        self._deadline = deadline

    def connect(self) -> None:
        self.sock = self._deadline.connect(self._address, self.port)


@dataclass(frozen=True, slots=True)
class HttpOutcome:
    ok: bool
    status: str  # the HTTP status, or "timeout" / "connection_error" / "tls_error" / "request_error"
    latency_ms: int


def post(
    target: Target,
    body: bytes,
    headers: dict[str, str],
    timeout: float,
    tls: ssl.SSLContext | None = None,
) -> HttpOutcome:
    """POST `body` within `timeout` seconds in all; a 2xx is a success. Redirects are not followed (they
    would skip the SSRF check). Never raises: whatever goes wrong is an outcome.

    `tls` defaults to the system's trust store with hostname checks.
    """
    started = time.monotonic()
    deadline = _Deadline(timeout)
    watchdog = threading.Timer(timeout, deadline.expire)
    watchdog.daemon = True

    def elapsed() -> int:
        return int((time.monotonic() - started) * 1000)

    connection: http.client.HTTPConnection | None = None
    watchdog.start()
    try:
        connection = (
            _PinnedHTTPSConnection(target, deadline, tls or ssl.create_default_context())
            if target.scheme == "https"
            else _PinnedHTTPConnection(target, deadline)
        )
        connection.request("POST", target.path, body=body, headers=headers)
        response = connection.getresponse()
        response.read(_MAX_RESPONSE_BYTES)
        if deadline.expired:
            return HttpOutcome(False, "timeout", elapsed())
        return HttpOutcome(200 <= response.status < 300, str(response.status), elapsed())
    except Exception as failed:  # every failure is an outcome the attempt records
        return HttpOutcome(False, _status_of(failed, deadline), elapsed())
    finally:
        watchdog.cancel()
        if connection is not None:
            connection.close()


def _status_of(failed: Exception, deadline: _Deadline) -> str:
    if deadline.expired or isinstance(failed, TimeoutError):
        return "timeout"
    if isinstance(failed, ssl.SSLError):
        return "tls_error"
    if isinstance(failed, OSError | http.client.HTTPException):
        return "connection_error"
    return "request_error"  # the request could not even be written (a header or path not encodable)
