"""The API registers a router when a request for one of its resources first comes, and only then."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import cast

import pytest
from aws_lambda_powertools.event_handler import APIGatewayRestResolver
from aws_lambda_powertools.event_handler.router import Router

from handlers.api import whole_api
from handlers.routing import ALL, EAGER, Routers, routers_for

SRC = Path(__file__).resolve().parents[3] / "src"
LAZY = tuple(name for name in ALL if name not in EAGER)


def resource_of(path: str) -> str:
    """Powertools' `/games/<game_id>` as API Gateway's `/games/{game_id}`."""
    return path.replace("<", "{").replace(">", "}")


def served_routes() -> list[tuple[str, str, str]]:
    app = whole_api()
    return [
        (route.method, resource_of(route.path), route.func.__module__.rsplit(".", 1)[-1])
        for route in [*app._static_routes, *app._dynamic_routes]
        if route.func.__module__.startswith("handlers.routes.")
    ]


def test_every_route_of_the_api_is_registered_before_a_request_for_its_resource_is_resolved() -> None:
    routes = served_routes()
    assert {router for _, _, router in routes} == set(ALL)
    unreachable = [
        (method, resource, router)
        for method, resource, router in routes
        if router not in EAGER and router not in routers_for(resource)
    ]
    assert unreachable == []


def test_a_resource_of_the_game_and_player_routes_loads_no_other_router() -> None:
    for method, resource, router in served_routes():
        if router in EAGER and resource != "/players/me":
            assert routers_for(resource) == (), (method, resource)


@pytest.mark.parametrize("resource", [None, "", "games", 7])
def test_a_request_without_a_readable_resource_gets_every_router(resource: object) -> None:
    assert routers_for(resource) == ALL


class Resolver:
    """Keeps the routers it is given (a real resolver would take the API's routers from the API's own)."""

    def __init__(self) -> None:
        self.included: list[str] = []

    def include_router(self, router: Router) -> None:
        self.included.append(next(iter(router._routes.values())).__module__.rsplit(".", 1)[-1])


def test_a_request_for_decks_registers_the_decks_router_once_and_nothing_else_lazy() -> None:
    resolver = Resolver()
    routers = Routers(cast(APIGatewayRestResolver, resolver))
    assert resolver.included == list(EAGER)
    routers.for_resource("/decks/{deck_id}/cards")
    routers.for_resource("/decks")
    assert resolver.included == [*EAGER, "decks"]
    assert routers.included == frozenset({*EAGER, "decks"})


def test_importing_the_api_leaves_the_other_routers_their_features_and_boto3_unimported() -> None:
    probe = (
        "import json, sys\n"
        "import handlers.api\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('app', 'handlers', 'boto3'))))"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC), "POWERTOOLS_TRACE_DISABLED": "true"}
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    imported = set(json.loads(done.stdout))
    assert "handlers.routes.games" in imported
    assert {f"handlers.routes.{name}" for name in LAZY} & imported == set()
    features = ("app.notify", "app.webhooks", "app.signin", "app.account", "app.feed")
    assert [name for name in imported if name.startswith(features)] == []
    assert "boto3" not in imported


def test_warming_up_registers_every_router_and_builds_every_schema() -> None:
    probe = (
        "import handlers.api\n"
        "from app.core.schema_base import Schema\n"
        "handlers.api.warm_up()\n"
        "models, unbuilt = [Schema], []\n"
        "while models:\n"
        "    model = models.pop()\n"
        "    models += model.__subclasses__()\n"
        "    unbuilt += [] if model.__pydantic_complete__ else [model.__name__]\n"
        "print(sorted(handlers.api.routers.included), unbuilt)"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC), "POWERTOOLS_TRACE_DISABLED": "true"}
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == f"{sorted(ALL)} []"
