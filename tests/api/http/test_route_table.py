"""The route table is the one place a route is declared: every other fact about routes is derived from it,
and whatever a route needs besides (its function, its template event, its sample) is held against it."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest

from app.players.scopes import GRANTABLE
from handlers import route_table
from handlers.api import whole_api
from handlers.hot_routes import ROUTES as LANE
from handlers.route_table import ROUTES, Endpoints, Route, match, routers, routes_of

from ..client import FakeContext

EVENTS = Path(__file__).resolve().parents[3] / "events" / "api"


def samples() -> list[dict[str, Any]]:
    return [json.loads(path.read_text(encoding="utf-8")) for path in sorted(EVENTS.glob("*.json"))]


def test_each_route_is_declared_once_with_a_unique_operation_id() -> None:
    requests = [(route.method, route.path) for route in ROUTES]
    assert len(requests) == len(set(requests))
    ids = [route.operation_id for route in ROUTES]
    assert len(ids) == len(set(ids))


def test_a_request_is_matched_by_its_method_and_resource_and_nothing_else() -> None:
    clue = match("POST", "/games/{game_id}/clue")
    assert clue is not None
    assert (clue.operation_id, clue.router, clue.lane) == ("giveClue", "games", True)
    assert match("GET", "/games/{game_id}/clue") is None
    assert match("POST", "/games/g_0123456789abcdef/clue") is None  # the resource, never the path
    assert match(None, None) is None


@pytest.mark.parametrize("router", routers())
def test_every_line_has_its_function_in_its_router_and_every_function_has_its_line(router: str) -> None:
    module = importlib.import_module(f"handlers.routes.{router}")
    endpoints: Endpoints = module.endpoint
    assert set(endpoints.found) == {route.operation_id for route in routes_of(router)}


def test_the_resolver_is_told_each_route_as_its_line_declares_it() -> None:
    registered = {
        (route.method, route.path): route
        for route in [*whole_api()._static_routes, *whole_api()._dynamic_routes]
    }
    for line in ROUTES:
        served = registered.pop((line.method, line.rule))
        assert served.operation_id == line.operation_id
        assert set(served.tags or []) == {line.tag}
        bearer = [{"bearerAuth": [line.scope.value]}] if line.scope is not None else None
        # An app's OAuth token may hold any scope but the owner's: those routes name both schemes.
        apps = [{"oauth2": [line.scope.value]}] if line.scope in GRANTABLE else []
        assert served.security == (None if bearer is None else bearer + apps)
        assert served.include_in_schema is line.documented
    assert registered == {}, "routes the resolver serves that the table does not declare"


def test_the_direct_lane_serves_the_routes_the_table_sends_down_it_and_no_other() -> None:
    assert set(LANE) == {route.operation_id for route in ROUTES if route.lane}


def test_every_route_has_a_sample_event_and_every_sample_is_for_a_route() -> None:
    sampled = {(event["httpMethod"], event["resource"]) for event in samples()}
    assert sampled == {(route.method, route.path) for route in ROUTES}


def test_the_document_keeps_to_the_table_words_stay_with_the_function() -> None:
    endpoints = Endpoints()
    with pytest.raises(TypeError, match="route_table"):
        endpoints("getGame", tags=["games"], summary="a tag is the table's to say")
    endpoints("getGame", summary="once")(lambda: None)
    with pytest.raises(ValueError, match="twice"):
        endpoints("getGame", summary="twice")(lambda: None)


def _without_token(event: dict[str, Any]) -> dict[str, Any]:
    headers = {k: v for k, v in event["headers"].items() if k.lower() != "authorization"}
    return {**event, "headers": headers, "multiValueHeaders": {k: [v] for k, v in headers.items()}}


@pytest.mark.parametrize("route", [r for r in ROUTES if not r.public], ids=lambda r: r.operation_id)
def test_every_signed_in_route_refuses_a_request_without_a_token(aws: None, route: Route) -> None:
    from handlers.api import lambda_handler

    event = next(e for e in samples() if (e["httpMethod"], e["resource"]) == (route.method, route.path))
    answer = lambda_handler(_without_token(event), FakeContext())
    assert answer["statusCode"] == 401, answer["body"]
    assert json.loads(answer["body"])["code"] == "missing_token"


@pytest.mark.parametrize("route", [r for r in ROUTES if r.public], ids=lambda r: r.operation_id)
def test_no_public_route_asks_for_a_token(aws: None, route: Route) -> None:
    from handlers.api import lambda_handler

    event = next(e for e in samples() if (e["httpMethod"], e["resource"]) == (route.method, route.path))
    answer = lambda_handler(_without_token(event), FakeContext())
    assert answer["statusCode"] != 401, answer["body"]


def test_a_preflight_needs_no_token_on_a_path_the_api_serves_and_elsewhere_does() -> None:
    assert route_table.serves("/docs")
    assert route_table.serves("/games/{game_id}/votes")
    assert not route_table.serves("/nowhere")


@pytest.mark.parametrize("resource", ["/docs", "/games/{game_id}/votes", "/players/me/sessions/{session_id}"])
def test_a_preflight_on_a_served_resource_is_answered_without_a_token(aws: None, resource: str) -> None:
    from handlers.api import lambda_handler

    template = next(e for e in samples() if e["resource"] == "/games/{game_id}/votes")
    headers = {"Origin": "http://127.0.0.1:3000", "Access-Control-Request-Method": "POST"}
    event = {**_without_token(template), "httpMethod": "OPTIONS", "resource": resource, "body": None}
    event["headers"] = headers
    event["multiValueHeaders"] = {k: [v] for k, v in headers.items()}
    answer = lambda_handler(event, FakeContext())
    assert answer["statusCode"] in (200, 204), answer.get("body")
    assert "missing_token" not in (answer.get("body") or "")


def test_a_preflight_on_a_resource_the_api_does_not_serve_asks_for_a_token(aws: None) -> None:
    from handlers.api import lambda_handler

    template = next(e for e in samples() if e["resource"] == "/games/{game_id}/votes")
    event = {**_without_token(template), "httpMethod": "OPTIONS", "resource": "/nowhere", "path": "/nowhere"}
    answer = lambda_handler(event, FakeContext())
    assert answer["statusCode"] == 401
    assert json.loads(answer["body"])["code"] == "missing_token"
