"""The routers a request needs, registered from the route table, so a cold start imports the one that
answers it and not the others.

By-mail traffic is sparse: most requests meet a cold execution environment, and importing every route's
module (webhooks, decks, notifications, mail …) for a move cost a third of the cold import. No router is
registered at import: moves and game views, nearly every request, are answered by the direct lane
(handlers.hot_routes) without the resolver, so registering the game and player routers for them (and
importing the player router's module and schemas) was cold-start work the first request did not use.
Each router is imported and registered the first time a request for one of its routes reaches the
resolver.

Each router module holds its functions under their operation ids (`handlers.route_table.Endpoints`);
everything the resolver is told of a route besides the document's words comes from its line in the table.
"""

from __future__ import annotations

import importlib
import threading
from typing import TYPE_CHECKING

from app.players.scopes import GRANTABLE
from handlers.problems import with_scope_refusal
from handlers.route_table import Endpoints, Route, routers, routes_of

if TYPE_CHECKING:
    from aws_lambda_powertools.event_handler import APIGatewayRestResolver

EAGER: tuple[str, ...] = ()


def security(route: Route) -> list[dict[str, list[str]]] | None:
    """What the document says a route needs: none (public), or a bearer token holding its scope
    (OpenAPI 3.1 lets an http scheme's requirement name roles; docs/tokens.md), or an app's OAuth token
    holding it, for every scope an app may be granted (never account:owner)."""
    if route.scope is None:
        return None
    needed = [route.scope.value]
    bearer = {"bearerAuth": needed}
    return [bearer, {"oauth2": needed}] if route.scope in GRANTABLE else [bearer]


def register(app: APIGatewayRestResolver, route: Route, endpoints: Endpoints) -> None:
    """One route on the resolver: its function and words from its module, all else from its line."""
    found = endpoints.found[route.operation_id]
    options = dict(found.options)
    if not route.public and "responses" in options:
        options["responses"] = with_scope_refusal(options["responses"])
    app.route(
        rule=route.rule,
        method=route.method,
        tags=[route.tag],
        operation_id=route.operation_id,
        security=security(route),
        include_in_schema=route.documented,
        **options,
    )(found.function)


class Routers:
    """The routers registered on one resolver so far: each one once, whichever request comes first."""

    def __init__(self, app: APIGatewayRestResolver) -> None:
        self._app = app
        self._included: set[str] = set()
        # The local stack serves requests from threads; Lambda runs one at a time.
        self._lock = threading.Lock()
        self.include(EAGER)

    def include(self, names: tuple[str, ...]) -> None:
        if self._included.issuperset(names):
            return
        with self._lock:
            for name in names:
                if name not in self._included:
                    module = importlib.import_module(f"handlers.routes.{name}")
                    for route in routes_of(name):
                        register(self._app, route, module.endpoint)
                    self._included.add(name)

    def for_route(self, route: Route | None) -> None:
        """The router of `route`; every router when no route matched (the resolver then says 404)."""
        self.include((route.router,) if route is not None else routers())

    def everything(self) -> None:
        self.include(routers())

    @property
    def included(self) -> frozenset[str]:
        return frozenset(self._included)
