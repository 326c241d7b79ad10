"""Serve a ``Gateway`` over HTTP with the standard library's ``ThreadingHTTPServer``."""

from __future__ import annotations

import logging
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from local_stack.gateway import Gateway
from local_stack.hosts import HOST_REFUSED, host_allowed, served_names
from local_stack.responses import HttpResponse, problem

LOG = logging.getLogger("local_stack.http")

MAX_BODY_BYTES = 10 * 1024 * 1024  # API Gateway's payload limit


class _RequestHandler(BaseHTTPRequestHandler):
    server: GatewayServer
    server_version = "dixit-local"
    sys_version = ""
    #: Seconds a client may take to send its request line, headers or body; then the connection is
    #: answered (400) or closed, and only that connection's thread waited.
    timeout = 10.0

    def __getattr__(self, name: str) -> Any:
        # Every method, TRACE or made up, reaches the gateway, which answers it as API Gateway would
        # (405 problem+json), instead of http.server's 501 HTML page.
        if name.startswith("do_"):
            return self._dispatch
        raise AttributeError(name)

    def _read_body(self) -> bytes | HttpResponse:
        raw = self.headers.get("Content-Length")
        if raw is None:
            return b""
        if not raw.strip().isdigit():
            return problem(400, "Bad Request", "bad_content_length", "Content-Length is not a byte count")
        length = int(raw)
        if length > MAX_BODY_BYTES:
            return problem(413, "Payload Too Large", "payload_too_large", "the body exceeds 10 MB")
        try:
            body = self.rfile.read(length)
        except TimeoutError:
            body = b""
        if len(body) < length:
            return problem(400, "Bad Request", "short_body", "the body is shorter than its Content-Length")
        return body

    def _host_is_ours(self) -> bool:
        hosts = self.headers.get_all("Host") or []
        return len(hosts) == 1 and host_allowed(hosts[0], self.server.names)

    def _dispatch(self) -> None:
        started = time.perf_counter()
        self.close_connection = True
        body = self._read_body()
        if not self._host_is_ours():
            # A web page under its own name reaching 127.0.0.1 (DNS rebinding) reads nothing here: not
            # the mailbox's sign-in codes, not the clock, not the API.
            response = problem(403, "Forbidden", "host_refused", HOST_REFUSED)
        elif isinstance(body, HttpResponse):
            response = body
        else:
            try:
                response = self.server.gateway.handle(
                    self.command,
                    self.path,
                    list(self.headers.items()),
                    body,
                    source_ip=self.client_address[0],
                    host=self.headers.get("Host") or f"{self.server.host}:{self.server.port}",
                )
            except Exception as exc:  # the gateway itself failed: never leave the client hanging
                LOG.exception("gateway error")
                response = problem(500, "Internal Server Error", "gateway_error", type(exc).__name__)
        try:
            self._write(response)
        except OSError:  # the client went away; nothing to tell it
            return
        elapsed_ms = (time.perf_counter() - started) * 1000
        LOG.info("%s %s %d %.1fms", self.command, self.path, response.status, elapsed_ms)

    def _write(self, response: HttpResponse) -> None:
        self.send_response(response.status)
        for name, value in response.headers:
            if name.lower() not in ("content-length", "connection", "transfer-encoding"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(response.body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(response.body)

    def log_message(self, format: str, *args: Any) -> None:
        LOG.debug(format, *args)


class GatewayServer(ThreadingHTTPServer):
    """A threading HTTP server bound to one ``Gateway``; one daemon thread per request."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, gateway: Gateway, host: str = "127.0.0.1", port: int = 0) -> None:
        self.gateway = gateway
        super().__init__((host, port), _RequestHandler)
        self.host = host
        #: The `Host` names answered (any port): loopback's and ``host``'s (``local_stack.hosts``).
        self.names = served_names(host)
        self.port = int(self.server_address[1])
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> GatewayServer:
        """Serve in a background thread; returns ``self`` for chaining."""
        self._thread = threading.Thread(
            target=self.serve_forever, kwargs={"poll_interval": 0.05}, name="http-gateway", daemon=True
        )
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Stop accepting requests, close the socket and join the serving thread."""
        if self._thread is not None:
            self.shutdown()
            self._thread.join(timeout)
            self._thread = None
        self.server_close()
