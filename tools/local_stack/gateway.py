"""What API Gateway (REST API, Lambda proxy integration) does around the handler, without sockets.

``Gateway.handle`` turns one HTTP request into a version 1.0 proxy event for a route that
``template.yaml`` declares, calls the Lambda handler in-process and maps its result back to an HTTP
response, as API Gateway would. Requests for undeclared routes never reach the handler: 404 (unknown
path) or 405 (known path, other method) as ``application/problem+json``.
"""

from __future__ import annotations

import base64
import logging
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from local_stack.environments import ExecutionEnvironments
from local_stack.events import rest_proxy_event
from local_stack.responses import HttpResponse, problem
from local_stack.runtime import INVOKE_LOCK, Handler, HandlerResolver, HandlerUnavailableError, LambdaContext
from local_stack.static import StaticSite
from local_stack.template import FunctionSpec, Route

LOG = logging.getLogger("local_stack.gateway")


@dataclass(frozen=True)
class RouteMatch:
    route: Route
    path_parameters: dict[str, str]


class RouteTable:
    """The template's routes, matched like API Gateway: literal segments beat ``{params}``."""

    def __init__(self, routes: Iterable[Route]) -> None:
        self.routes = list(routes)
        self._patterns: dict[str, re.Pattern[str]] = {}
        for route in self.routes:
            self._patterns.setdefault(route.path, _compile(route.path))

    def paths_matching(self, path: str) -> list[tuple[str, dict[str, str]]]:
        """Resource paths that match ``path``, most specific first, with their path parameters."""
        found = []
        for resource, pattern in self._patterns.items():
            match = pattern.fullmatch(path)
            if match:
                found.append((resource, {k: unquote(v) for k, v in match.groupdict().items()}))
        found.sort(key=lambda item: _specificity(item[0]), reverse=True)
        return found

    def match(self, method: str, path: str) -> RouteMatch | None:
        """The route serving ``method path``, or ``None``."""
        for resource, params in self.paths_matching(path):
            for route in self.routes:
                if route.path == resource and route.method in (method, "ANY"):
                    return RouteMatch(route, params)
        return None

    def allowed_methods(self, path: str) -> list[str]:
        """The methods declared on the most specific resource matching ``path`` (empty: unknown path)."""
        candidates = self.paths_matching(path)
        if not candidates:
            return []
        return sorted({route.method for route in self.routes if route.path == candidates[0][0]})


def _normalise(raw_path: str) -> str:
    """The decoded request path; like API Gateway, a trailing slash does not change the resource."""
    path = unquote(raw_path) or "/"
    return path.rstrip("/") or "/"


def _compile(path: str) -> re.Pattern[str]:
    parts = []
    for segment in path.strip("/").split("/") if path != "/" else []:
        greedy = re.fullmatch(r"\{(\w+)\+\}", segment)
        param = re.fullmatch(r"\{(\w+)\}", segment)
        if greedy:
            parts.append(f"(?P<{greedy.group(1)}>.+)")
        elif param:
            parts.append(f"(?P<{param.group(1)}>[^/]+)")
        else:
            parts.append(re.escape(segment))
    return re.compile("/" + "/".join(parts))


def _specificity(path: str) -> tuple[int, int]:
    segments = path.strip("/").split("/")
    literal = sum(1 for segment in segments if not segment.startswith("{"))
    return (literal, len(segments))


#: The methods API Gateway REST APIs accept; anything else (TRACE, CONNECT, made-up verbs) is a 405.
API_METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})


def _method_not_allowed(method: str, path: str, allowed: Sequence[str]) -> HttpResponse:
    response = problem(
        405,
        "Method Not Allowed",
        "method_not_allowed",
        f"{method} is not declared for {path} in template.yaml (allowed: {', '.join(allowed)})",
    )
    return HttpResponse(405, [*response.headers, ("Allow", ", ".join(allowed))], response.body)


#: A local stack service under a path prefix: (method, path, query, headers, body) -> response.
LocalApp = Callable[[str, str, str, Sequence[tuple[str, str]], bytes], HttpResponse]


class Gateway:
    """API Gateway REST API in front of one Lambda handler, with the handler injected."""

    def __init__(
        self,
        routes: Iterable[Route],
        handler: HandlerResolver | Mapping[str, HandlerResolver],
        *,
        functions: Mapping[str, FunctionSpec] | None = None,
        stage: str = "dev",
        cors_headers: Mapping[str, str] | None = None,
        region: str = "us-east-1",
        static: StaticSite | None = None,
        environments: ExecutionEnvironments | None = None,
        local_routes: Mapping[str, Callable[[str], HttpResponse]] | None = None,
        local_apps: Mapping[str, LocalApp] | None = None,
    ) -> None:
        """``handler`` resolves the Lambda handler: one for every route, or one per function logical id.

        ``functions`` (from the template) gives each function's memory size and timeout for its context.
        ``static`` serves a web client's files for ``GET`` on paths no route claims. With
        ``environments``, handlers run there, concurrently, instead of one at a time in this process.
        ``local_routes`` are the local stack's own ``GET`` paths (``/_local/mail``), each given the query
        string and served before any route: never the API's, so neither template.yaml nor the OpenAPI
        document has them. ``local_apps`` serve every method on every path under their prefix
        (``/_local/push``: the local push service), given method, path, query, headers and body.
        """
        self.local_routes = dict(local_routes or {})
        self.local_apps = dict(local_apps or {})
        self.static = static
        self.environments = environments
        self.routes = RouteTable(routes)
        self.handlers = handler
        self.functions = dict(functions or {})
        self.stage = stage
        self.cors_headers = dict(cors_headers or {})
        self.region = region

    def resolve_handler(self, function: str) -> Handler:
        if isinstance(self.handlers, Mapping):
            resolver = self.handlers.get(function)
            if resolver is None:
                raise HandlerUnavailableError(f"no handler for {function}")
            return resolver()
        return self.handlers()

    def context_for(self, function: str) -> LambdaContext:
        spec = self.functions.get(function)
        if spec is None:
            return LambdaContext(function_name=function, region=self.region)
        return LambdaContext.for_function(spec, self.region)

    # -- request → event ---------------------------------------------------------------------------

    def build_event(
        self,
        match: RouteMatch,
        method: str,
        target: str,
        headers: Sequence[tuple[str, str]],
        body: bytes,
        *,
        source_ip: str = "127.0.0.1",
        host: str = "127.0.0.1",
        protocol: str = "HTTP/1.1",
    ) -> dict[str, Any]:
        """The version 1.0 (REST API) Lambda proxy event for one request."""
        url = urlsplit(target)
        return rest_proxy_event(
            method,
            _normalise(url.path),
            resource=match.route.path,
            path_parameters=match.path_parameters,
            headers=headers,
            query=parse_qsl(url.query, keep_blank_values=True),
            body=body,
            stage=self.stage,
            source_ip=source_ip,
            host=host,
            protocol=protocol,
        )

    # -- result → response -------------------------------------------------------------------------

    @staticmethod
    def build_response(result: Any) -> HttpResponse:
        """Map a proxy integration result back to HTTP; a malformed one is a 502, as on API Gateway."""
        if not isinstance(result, dict) or not isinstance(result.get("statusCode"), int):
            return problem(
                502,
                "Bad Gateway",
                "malformed_lambda_response",
                "the handler did not return a proxy result with an integer statusCode",
            )
        merged: dict[str, tuple[str, list[str]]] = {}
        for name, values in (result.get("multiValueHeaders") or {}).items():
            merged[name.lower()] = (name, [str(value) for value in values])
        for name, value in (result.get("headers") or {}).items():
            merged.setdefault(name.lower(), (name, [str(value)]))
        headers = [(name, value) for name, values in merged.values() for value in values]

        raw_body = result.get("body")
        if raw_body is None:
            body = b""
        elif result.get("isBase64Encoded"):
            body = base64.b64decode(raw_body)
        else:
            body = str(raw_body).encode("utf-8")
        if "content-type" not in merged and body:
            headers.append(("Content-Type", "application/json"))
        return HttpResponse(int(result["statusCode"]), headers, body)

    # -- the whole round trip ----------------------------------------------------------------------

    def handle(
        self,
        method: str,
        target: str,
        headers: Sequence[tuple[str, str]],
        body: bytes,
        *,
        source_ip: str = "127.0.0.1",
        host: str = "127.0.0.1",
    ) -> HttpResponse:
        method = method.upper()
        path = _normalise(urlsplit(target).path)
        for prefix, local_app in self.local_apps.items():
            if path == prefix or path.startswith(f"{prefix}/"):
                return local_app(method, path, urlsplit(target).query, headers, body)
        local = self.local_routes.get(path)
        if local is not None and method in ("GET", "HEAD"):
            return local(urlsplit(target).query)
        for prefix, serve in self.local_routes.items():
            # A route ending in "/" serves everything below it, given the rest of the path.
            if prefix.endswith("/") and path.startswith(prefix) and method in ("GET", "HEAD"):
                return serve(path[len(prefix) :])
        if method not in API_METHODS:
            return _method_not_allowed(method, path, self.routes.allowed_methods(path) or ["GET", "POST"])
        match = self.routes.match(method, path)
        if match is None and self.static is not None and method in ("GET", "HEAD"):
            served = self.static.serve(urlsplit(target).path)
            if served is not None:
                return served
        if match is None:
            allowed = self.routes.allowed_methods(path)
            if not allowed:
                return problem(404, "Not Found", "route_not_found", f"no route {path} in template.yaml")
            if method == "OPTIONS" and self.cors_headers:
                # Cors on the Api gives every path a mock OPTIONS method answering the preflight.
                return HttpResponse(200, list(self.cors_headers.items()), b"{}")
            return _method_not_allowed(method, path, allowed)

        event = self.build_event(match, method, target, headers, body, source_ip=source_ip, host=host)
        context = self.context_for(match.route.function)
        try:
            if self.environments is not None:
                result = self.environments.invoke(match.route.function, event, context)
            else:
                handler = self.resolve_handler(match.route.function)
                with INVOKE_LOCK:
                    result = handler(event, context)
        except HandlerUnavailableError as exc:
            LOG.error("handler unavailable: %s", exc)
            return problem(500, "Internal Server Error", "handler_unavailable", str(exc))
        except Exception as exc:
            LOG.exception("the handler raised for %s %s", method, path)
            # The exception's text may hold anything (input, internals): the log has it, the client not.
            return problem(502, "Bad Gateway", "handler_error", f"the handler raised {type(exc).__name__}")
        return self.build_response(result)
