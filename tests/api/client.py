"""Calling the real lambda_handler the way API Gateway and a front-end would."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from local_stack.events import rest_proxy_event


class FakeContext:
    function_name = "ApiFunction"
    memory_limit_in_mb = 512
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:ApiFunction"
    aws_request_id = "req-test"

    def get_remaining_time_in_millis(self) -> int:
        return 30_000


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    raw: str

    @property
    def body(self) -> Any:
        return json.loads(self.raw) if self.raw else None


def make_event(
    method: str,
    path: str,
    *,
    body: Any = None,
    headers: dict[str, str] | None = None,
    raw_body: str | None = None,
    query: dict[str, str] | None = None,
) -> dict[str, Any]:
    """An API Gateway REST proxy event, as API Gateway would send it."""
    resource_parts = []
    params: dict[str, str] = {}
    parts = path.strip("/").split("/")
    for i, part in enumerate(parts):
        if i == 1 and parts[0] in ("games", "decks") and part not in ("",):
            name = "game_id" if parts[0] == "games" else "deck_id"
            resource_parts.append("{" + name + "}")
            params[name] = part
        else:
            resource_parts.append(part)
    resource = "/" + "/".join(resource_parts)
    if resource == "/games/{game_id}" and path == "/games":
        resource = "/games"
    resource, params = _templated(method, resource, params)
    all_headers = {"Content-Type": "application/json", **(headers or {})}
    return rest_proxy_event(
        method,
        path,
        resource=resource,
        path_parameters=params,
        headers=all_headers,
        query=query,
        body=raw_body if raw_body is not None else (None if body is None else json.dumps(body)),
        stage="test",
    )


def _templated(method: str, resource: str, params: dict[str, str]) -> tuple[str, dict[str, str]]:
    """The table's resource for a path with an id below /players/me (/players/me/sessions/s_…), as API
    Gateway would name it; any other resource as it was (an unknown one stays unknown)."""
    from handlers.route_table import ROUTES

    if any(r.path == resource for r in ROUTES):
        return resource, params
    parts = resource.strip("/").split("/")
    for route in ROUTES:
        template = route.path.strip("/").split("/")
        if route.method != method or len(template) != len(parts) or not route.path.startswith("/players/me/"):
            continue
        if all(t == p or t.startswith("{") for t, p in zip(template, parts, strict=True)):
            named = {t[1:-1]: p for t, p in zip(template, parts, strict=True) if t.startswith("{")}
            return route.path, {**params, **named}
    return resource, params


def call(method: str, path: str, **kwargs: Any) -> Reply:
    from handlers.api import lambda_handler

    result = lambda_handler(make_event(method, path, **kwargs), FakeContext())
    headers = {k: v for k, v in (result.get("headers") or {}).items()}
    for k, values in (result.get("multiValueHeaders") or {}).items():
        headers.setdefault(k, values[0])
    return Reply(result["statusCode"], headers, result.get("body") or "")


@dataclass
class Client:
    """A player as a front-end would act: remembers its token."""

    name: str
    token: str = ""
    player_id: str = ""
    extra_headers: dict[str, str] = field(default_factory=dict)

    def register(self) -> Client:
        reply = call("POST", "/players", body={"name": self.name})
        assert reply.status == 201, reply.raw
        self.token, self.player_id = reply.body["token"], reply.body["player_id"]
        return self

    def auth(self, headers: dict[str, str] | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", **self.extra_headers, **(headers or {})}

    def get(
        self, path: str, *, headers: dict[str, str] | None = None, query: dict[str, str] | None = None
    ) -> Reply:
        return call("GET", path, headers=self.auth(headers), query=query)

    def post(
        self,
        path: str,
        body: Any = None,
        *,
        headers: dict[str, str] | None = None,
        raw_body: str | None = None,
    ) -> Reply:
        return call("POST", path, body=body, headers=self.auth(headers), raw_body=raw_body)

    def put(self, path: str, body: Any = None, *, headers: dict[str, str] | None = None) -> Reply:
        return call("PUT", path, body=body, headers=self.auth(headers))

    def delete(self, path: str, *, headers: dict[str, str] | None = None) -> Reply:
        return call("DELETE", path, headers=self.auth(headers))
