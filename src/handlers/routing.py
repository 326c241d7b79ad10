"""Which routers a request needs, so a cold start imports the one that answers it and not the other eight.

By-mail traffic is sparse: most requests meet a cold execution environment, and importing every route's
module (webhooks, decks, notifications, mail …) for a move cost a third of the cold import. The game and
player routers answer nearly every request (moves, views, the inbox) and are registered at import; the
others are imported and registered the first time a request for one of their resources arrives.

A resource no prefix below claims can only be answered by an eager router (or by nobody: a 404), so the
table needs to be complete, not exact; `tests/api/test_routing.py` checks it against every route.
"""

from __future__ import annotations

import importlib
import threading
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from aws_lambda_powertools.event_handler import APIGatewayRestResolver

EAGER = ("players", "games")
# Every router in the order the whole API registers them (the document, an unknown resource).
ALL = (
    "players",
    "sign_in",
    "games",
    "decks",
    "notifications",
    "web_push",
    "webhooks",
    "account",
    "unsubscribe",
)

# API Gateway resource (as the event's `resource` names it) → the lazy routers that serve it.
_PREFIXES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("/players/me/webhooks", ("webhooks",)),
    ("/games/{game_id}/events", ("webhooks",)),
    ("/players/me/web-push", ("web_push",)),
    ("/web-push", ("web_push",)),
    ("/players/me/devices", ("notifications",)),
    ("/players/me/notifications", ("notifications",)),
    ("/games/{game_id}/notifications", ("notifications",)),
    ("/games/{game_id}/nudges", ("notifications",)),
    ("/players/me/email", ("sign_in",)),
    ("/sessions", ("sign_in",)),
    ("/players/me/export", ("account",)),
    ("/decks", ("decks",)),
    ("/notifications/unsubscribe", ("unsubscribe",)),
)
# `DELETE /players/me` erases the account; the players router has GET and PATCH on the same resource.
_EXACT = {"/players/me": ("account",)}


def routers_for(resource: object) -> tuple[str, ...]:
    """The lazy routers a request on `resource` may need; every router when the resource is unknown."""
    if not isinstance(resource, str) or not resource.startswith("/"):
        return ALL
    return _routers_of(resource)


@lru_cache(maxsize=256)
def _routers_of(resource: str) -> tuple[str, ...]:
    # API Gateway names a few dozen resources: each one's answer is worked out once per environment.
    if resource in _EXACT:
        return _EXACT[resource]
    for prefix, names in _PREFIXES:
        if resource == prefix or resource.startswith(prefix + "/"):
            return names
    return ()


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
                    self._app.include_router(module.router)
                    self._included.add(name)

    def for_resource(self, resource: object) -> None:
        self.include(routers_for(resource))

    def everything(self) -> None:
        self.include(ALL)

    @property
    def included(self) -> frozenset[str]:
        return frozenset(self._included)
