"""The live channel locally: the template's WebSocket API served on its own port, as API Gateway serves
it, and its management API (PostToConnection) under the gateway's ``/_local/live``.

Each socket gets a connection id; its opening is a ``$connect`` event (with ``queryStringParameters``),
each frame a ``MESSAGE`` event on ``$default`` (its body), its close a ``$disconnect`` event, all handed to
the function the API's integration names (``LiveFunction``), one at a time like every handler here
(``INVOKE_LOCK``). A ``$connect`` answering other than 2xx refuses the handshake with that status; a
frame's answer with a body is sent back on the socket (the route's response). The sender posts through
its ``apigatewaymanagementapi`` client at ``LIVE_ENDPOINT_URL``, which the stack points at
``/_local/live``: the function's code is the same as in the cloud. Listens on 127.0.0.1 only unless told.
"""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import json
import re
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from local_stack.events import ACCOUNT_ID
from local_stack.hosts import HOST_REFUSED, host_allowed, served_names
from local_stack.responses import HttpResponse, problem
from local_stack.runtime import INVOKE_LOCK, HandlerResolver, LambdaContext
from local_stack.template import FunctionSpec

LIVE_PATH = "/_local/live"
#: API Gateway's largest WebSocket message (128 KB); a bigger one closes the socket (1009).
MAX_MESSAGE_BYTES = 128 * 1024
_API_ID = "live0local"


def websocket_function(template: Mapping[str, Any]) -> str | None:
    """The logical id of the function the template's WebSocket API integrates (None: there is none)."""
    resources: Mapping[str, Any] = template.get("Resources") or {}
    apis = {
        name
        for name, resource in resources.items()
        if resource.get("Type") == "AWS::ApiGatewayV2::Api"
        and (resource.get("Properties") or {}).get("ProtocolType") == "WEBSOCKET"
    }
    for resource in resources.values():
        props = resource.get("Properties") or {}
        if (
            resource.get("Type") != "AWS::ApiGatewayV2::Integration"
            or props.get("ApiId", {}).get("Ref") not in apis
        ):
            continue
        uri = props.get("IntegrationUri")
        text = uri.get("Fn::Sub") if isinstance(uri, dict) else uri
        found = re.search(r"\$\{(\w+)\.Arn\}", text or "")
        if found:
            return found.group(1)
    return None


def _now_ms() -> int:
    return int(time.time() * 1000)


def _request_context(connection_id: str, route: str, event_type: str, stage: str) -> dict[str, Any]:
    now = datetime.now(UTC)
    return {
        "routeKey": route,
        "eventType": event_type,
        "messageDirection": "IN",
        "extendedRequestId": secrets.token_urlsafe(12),
        "requestTime": now.strftime("%d/%b/%Y:%H:%M:%S +0000"),
        "requestTimeEpoch": _now_ms(),
        "stage": stage,
        "connectedAt": _now_ms(),
        "identity": {"sourceIp": "127.0.0.1"},
        "requestId": secrets.token_urlsafe(12),
        "domainName": "127.0.0.1",
        "connectionId": connection_id,
        "apiId": _API_ID,
        "accountId": ACCOUNT_ID,
    }


def connect_event(
    connection_id: str, query: str, headers: Sequence[tuple[str, str]], stage: str
) -> dict[str, Any]:
    """What API Gateway sends the ``$connect`` route: the handshake's headers and query string."""
    parsed = parse_qs(query, keep_blank_values=True)
    multi_headers: dict[str, list[str]] = {}
    for name, value in headers:
        multi_headers.setdefault(name, []).append(value)
    return {
        "headers": {name: values[-1] for name, values in multi_headers.items()},
        "multiValueHeaders": multi_headers,
        "queryStringParameters": {name: values[-1] for name, values in parsed.items()} or None,
        "multiValueQueryStringParameters": parsed or None,
        "requestContext": _request_context(connection_id, "$connect", "CONNECT", stage),
        "isBase64Encoded": False,
    }


def message_event(connection_id: str, body: str, stage: str) -> dict[str, Any]:
    context = _request_context(connection_id, "$default", "MESSAGE", stage)
    context["messageId"] = secrets.token_urlsafe(8)
    return {"requestContext": context, "body": body, "isBase64Encoded": False}


def disconnect_event(connection_id: str, stage: str, code: int | None, reason: str) -> dict[str, Any]:
    context = _request_context(connection_id, "$disconnect", "DISCONNECT", stage)
    context["disconnectStatusCode"] = code if code is not None else 1005
    context["disconnectReason"] = reason
    return {"headers": {}, "multiValueHeaders": {}, "requestContext": context, "isBase64Encoded": False}


def connect_refusal(status: int, answer: Mapping[str, Any]) -> HttpResponse:
    """The handshake's answer when ``$connect`` answered ``status`` (not 2xx): the function's status,
    headers and body as it gave them (handlers.live words its refusals as problem+json, with
    Retry-After on the cap's 429); a body with no type of its own goes as text."""
    headers = [(str(name), str(value)) for name, value in (answer.get("headers") or {}).items()]
    if not any(name.lower() == "content-type" for name, _ in headers):
        headers.append(("Content-Type", "text/plain; charset=utf-8"))
    body = str(answer.get("body") or _phrase(status))
    return HttpResponse(status, headers, body.encode())


def _http_response(answer: HttpResponse) -> Response:
    """``answer`` as the HTTP response that refuses a WebSocket handshake (the connection then closes)."""
    headers = Headers([("Date", email.utils.formatdate(usegmt=True)), ("Connection", "close")])
    for name, value in answer.headers:
        if name.lower() not in ("date", "connection", "content-length", "transfer-encoding"):
            headers[name] = value
    headers["Content-Length"] = str(len(answer.body))
    return Response(answer.status, _phrase(answer.status), headers, answer.body)


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:  # a status HTTP does not name (a function may answer any)
        return ""


def _new_connection_id() -> str:
    # Shaped like API Gateway's (base64, 16 characters): clients and the store must treat it as opaque.
    return secrets.token_urlsafe(11)[:15] + "="


class LiveServer:
    """The WebSocket API on ``host:port`` (an asyncio loop in a thread of its own) and its connections."""

    def __init__(
        self,
        function: FunctionSpec,
        handler: HandlerResolver,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        stage: str = "dev",
        region: str = "us-east-1",
        report: Callable[[str], None] | None = None,
    ) -> None:
        self.function = function
        self.handler = handler
        self.host = host
        #: The `Host` names a handshake may carry (any port): loopback's and ``host``'s.
        self.names = served_names(host)
        self.port = port
        self.stage = stage
        self.region = region
        self.report = report or (lambda line: None)
        self.connections: dict[str, ServerConnection] = {}
        self._ids: dict[int, str] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"ws://{self.host}:{self.port}"

    # ---- the function -----------------------------------------------------------------------------

    def _invoke(self, event: dict[str, Any]) -> dict[str, Any]:
        context = LambdaContext.for_function(self.function, self.region)
        try:
            with INVOKE_LOCK:
                result = self.handler()(event, context)
        except Exception as exc:  # what API Gateway answers a failing integration with
            self.report(f"{event['requestContext']['routeKey']} raised {type(exc).__name__}: {exc}")
            return {"statusCode": 500}
        return result if isinstance(result, dict) else {"statusCode": 200}

    async def _process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        hosts = request.headers.get_all("Host")
        if len(hosts) != 1 or not host_allowed(hosts[0], self.names):
            # A web page under its own name reaching 127.0.0.1 (DNS rebinding) opens no socket.
            return _http_response(problem(403, "Forbidden", "host_refused", HOST_REFUSED))
        connection_id = _new_connection_id()
        query = urlsplit(request.path).query
        event = connect_event(connection_id, query, list(request.headers.raw_items()), self.stage)
        answer = await asyncio.to_thread(self._invoke, event)
        status = int(answer.get("statusCode") or 200)
        if not 200 <= status < 300:
            self.report(f"$connect refused: {status} {answer.get('body') or ''}".rstrip())
            return _http_response(connect_refusal(status, answer))
        self._ids[id(connection)] = connection_id
        return None

    async def _serve(self, connection: ServerConnection) -> None:
        connection_id = self._ids.pop(id(connection))
        self.connections[connection_id] = connection
        self.report(f"connected {connection_id}")
        try:
            async for message in connection:
                body = message if isinstance(message, str) else message.decode("utf-8", "replace")
                answer = await asyncio.to_thread(self._invoke, message_event(connection_id, body, self.stage))
                reply = answer.get("body")
                if reply:
                    await connection.send(str(reply))
        except ConnectionClosed:
            pass
        finally:
            self.connections.pop(connection_id, None)
            event = disconnect_event(
                connection_id, self.stage, connection.close_code, connection.close_reason or ""
            )
            await asyncio.to_thread(self._invoke, event)
            self.report(f"disconnected {connection_id}")

    # ---- the management API: PostToConnection, DeleteConnection, GetConnection --------------------

    def post(self, connection_id: str, data: bytes) -> bool:
        """Send ``data`` as one text frame; False when no such connection is open (API Gateway's 410)."""
        connection, loop = self.connections.get(connection_id), self._loop
        if connection is None or loop is None:
            return False
        sent = asyncio.run_coroutine_threadsafe(connection.send(data.decode("utf-8", "replace")), loop)
        try:
            sent.result(timeout=2)
        except (ConnectionClosed, TimeoutError, RuntimeError):
            return False
        return True

    def close(self, connection_id: str) -> bool:
        connection, loop = self.connections.get(connection_id), self._loop
        if connection is None or loop is None:
            return False
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(connection.close(), loop).result(timeout=2)
        return True

    def handle(
        self, method: str, path: str, query: str, headers: Sequence[tuple[str, str]], body: bytes
    ) -> HttpResponse:
        """Every request under ``/_local/live``: ``{POST,GET,DELETE} /@connections/{id}``."""
        if any(name.lower() == "origin" for name, _ in headers):
            # A web page may not post to a socket (the twin's own rule for every browser request).
            return problem(403, "Forbidden", "origin_refused", "the local management API refuses web pages")
        rest = unquote(path[len(LIVE_PATH) :]).strip("/")
        kind, _, connection_id = rest.partition("/")
        if kind != "@connections" or not connection_id:
            return problem(404, "Not Found", "route_not_found", f"no local live route {method} {path}")
        open_now = connection_id in self.connections
        if method == "POST" and self.post(connection_id, body):
            return HttpResponse(200, [("Content-Type", "application/json")], b"{}")
        if method == "DELETE" and self.close(connection_id):
            return HttpResponse(204, [], b"")
        if method == "GET" and open_now:
            info = {"connectedAt": datetime.now(UTC).isoformat(), "identity": {"sourceIp": "127.0.0.1"}}
            return HttpResponse(200, [("Content-Type", "application/json")], json.dumps(info).encode())
        if method not in ("POST", "DELETE", "GET"):
            return problem(405, "Method Not Allowed", "method_not_allowed", f"{method} is not served here")
        gone = json.dumps({"message": f"connection {connection_id} is gone"}).encode()
        return HttpResponse(
            410, [("Content-Type", "application/json"), ("x-amzn-ErrorType", "GoneException")], gone
        )

    # ---- start and stop ---------------------------------------------------------------------------

    def start(self) -> LiveServer:
        loop = asyncio.new_event_loop()
        started = threading.Event()
        failure: list[BaseException] = []

        async def open_server() -> Server:
            return await serve(
                self._serve,
                self.host,
                self.port,
                process_request=self._process_request,
                max_size=MAX_MESSAGE_BYTES,
                # API Gateway pings nothing itself; a dead client is found when a post to it fails.
                ping_interval=None,
            )

        def run() -> None:
            asyncio.set_event_loop(loop)
            try:
                self._server = loop.run_until_complete(open_server())
            except BaseException as exc:
                failure.append(exc)
                started.set()
                return
            started.set()
            loop.run_forever()
            loop.close()

        self._loop = loop
        self._thread = threading.Thread(target=run, name="live-websocket", daemon=True)
        self._thread.start()
        started.wait(10)
        if failure:
            raise failure[0]
        assert self._server is not None
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    def stop(self) -> None:
        loop, server = self._loop, self._server
        if loop is None or server is None:
            return

        async def shut() -> None:
            server.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(server.wait_closed(), 5)

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(shut(), loop).result(timeout=8)
        loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(5)
        self._loop = self._server = self._thread = None
