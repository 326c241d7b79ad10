"""The API registers a router when a request for one of its routes first comes, and only then."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from aws_lambda_powertools.event_handler import APIGatewayRestResolver

from handlers.route_table import ROUTES, match, routers
from handlers.routing import EAGER, Routers

SRC = Path(__file__).resolve().parents[3] / "src"
ALL = routers()


class Resolver:
    """Keeps the routes it is told of, by router (a real resolver would build Route objects of them)."""

    def __init__(self) -> None:
        self.told: list[tuple[str, str]] = []

    def route(self, rule: str, method: str, **options: Any) -> Callable[[Callable[..., Any]], Any]:
        def keep(function: Callable[..., Any]) -> Any:
            self.told.append((method, rule))
            return function

        return keep

    def routers(self) -> list[str]:
        lines = {(route.method, route.rule): route.router for route in ROUTES}
        return list(dict.fromkeys(lines[told] for told in self.told))


def test_a_request_for_a_lazy_route_registers_its_router_once_and_nothing_else_lazy() -> None:
    resolver = Resolver()
    routers_now = Routers(cast(APIGatewayRestResolver, resolver))
    assert resolver.routers() == list(EAGER)
    routers_now.for_route(match("GET", "/decks/{deck_id}/cards"))
    routers_now.for_route(match("POST", "/decks"))
    assert resolver.routers() == [*EAGER, "decks"]
    assert routers_now.included == frozenset({*EAGER, "decks"})
    assert len(resolver.told) == len(set(resolver.told)), "a route registered twice"


def test_a_request_no_route_matches_registers_every_router_so_the_resolver_can_say_404() -> None:
    resolver = Resolver()
    routers_now = Routers(cast(APIGatewayRestResolver, resolver))
    routers_now.for_route(match("PUT", "/games"))
    assert routers_now.included == frozenset(ALL)
    assert sorted(resolver.told) == sorted((route.method, route.rule) for route in ROUTES)


def test_importing_the_api_leaves_the_other_routers_their_features_and_boto3_unimported() -> None:
    probe = (
        "import json, sys\n"
        "import handlers.api\n"
        "assert not handlers.api.routers.included, handlers.api.routers.included\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('app', 'handlers', 'boto3'))))"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC), "POWERTOOLS_TRACE_DISABLED": "true"}
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    imported = set(json.loads(done.stdout))
    # The direct lane runs the moves and the look at a game (handlers.routes.game_moves), with their bodies'
    # models alone; no router's module is imported, and none is registered before a request needs it.
    assert {f"handlers.routes.{name}" for name in ALL} & imported == set()
    assert "handlers.routes.game_moves" in imported
    assert "app.games.schemas" not in imported, (
        "the answers' models are imported by the routes answering them"
    )
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
