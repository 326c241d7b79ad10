"""The route table: every route of the API declared once, in one line, and everything else derived from it.

A line says what the API's machinery needs to know of a route before the route's module is imported:
its method and path (API Gateway's form, as the event's `resource` names it), its operation id (what a
generated SDK calls it; it also ties the line to its function, see `Endpoints`), the router module that
holds the function, its OpenAPI tag, the scope a caller needs (None: public, no token), and three ways a
route is handled apart from the rest:

- `form`: its body is a form (RFC 8058 one-click unsubscribe), not JSON;
- `lane`: the direct lane answers it (handlers.hot_routes) without the resolver's per-request work;
- `rotation`: a retry may come with the token the route replaced (token rotation).

From the table come: which requests need a token (and, for third-party apps, which scope), the
operation ids and tags of the document, which router a request imports (handlers.routing), the direct
lane's table, and the resolver's registration. A test holds template.yaml's API events and the samples in
events/api/ against it. Adding a route: the function (with `@endpoint`), its line here, its event in
template.yaml and a sample in events/api/ (docs/architecture.md, "Adding a route").

This module imports nothing heavy: the API reads it on every cold start, before any router.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from functools import cache
from typing import Any, TypeVar

# The scopes are the tokens' vocabulary (app.players.scopes): a personal token is checked against them.
from app.players.scopes import Scope
from dixit.lean_dataclass import dataclass

PUBLIC = None
_R = Scope.GAMES_READ
_P = Scope.GAMES_PLAY
_N = Scope.NOTIFICATIONS
_W = Scope.WEBHOOKS
_D = Scope.DECKS


@dataclass(frozen=True, slots=True)
class Route:
    method: str
    path: str  # API Gateway's form: /games/{game_id}
    operation_id: str
    router: str  # the module under handlers.routes that holds the function
    tag: str
    scope: Scope | None  # None: public
    form: bool = False
    lane: bool = False
    rotation: bool = False
    documented: bool = True  # False: served but not in the OpenAPI document (the document itself)

    @property
    def rule(self) -> str:
        """The path as the resolver's rule: /games/<game_id>."""
        return self.path.replace("{", "<").replace("}", ">")

    @property
    def public(self) -> bool:
        return self.scope is None


def _routes(router: str, tag: str, *lines: tuple[Any, ...]) -> tuple[Route, ...]:
    """One router's lines under one tag: (method, path, operation id, scope[, flags])."""
    return tuple(
        Route(method, path, op, router, tag, scope, **(flags[0] if flags else {}))
        for method, path, op, scope, *flags in lines
    )


def _flags(**flags: bool) -> dict[str, bool]:
    return flags


LANE = _flags(lane=True)

ROUTES: tuple[Route, ...] = (
    *_routes(
        "players",
        "players",
        ("POST", "/players", "registerPlayer", PUBLIC),
        ("GET", "/players/me", "getMe", Scope.ACCOUNT_READ),
        ("PATCH", "/players/me", "renameMe", Scope.ACCOUNT_WRITE),
        ("GET", "/players/me/games", "listMyGames", _R),
        ("POST", "/players/me/tokens", "rotateToken", Scope.OWNER, _flags(rotation=True)),
        ("DELETE", "/players/me/tokens/current", "revokeToken", Scope.OWNER),
        ("GET", "/players/me/sessions", "listSessions", Scope.OWNER),
        ("DELETE", "/players/me/sessions", "endOtherSessions", Scope.OWNER),
        ("DELETE", "/players/me/sessions/{session_id}", "endSession", Scope.OWNER),
    ),
    *_routes(
        "personal_tokens",
        "players",
        ("POST", "/players/me/personal-tokens", "createPersonalToken", Scope.OWNER),
        ("GET", "/players/me/personal-tokens", "listPersonalTokens", Scope.OWNER),
        ("DELETE", "/players/me/personal-tokens/{token_id}", "revokePersonalToken", Scope.OWNER),
    ),
    *_routes(
        "apps",
        "players",
        ("GET", "/players/me/apps", "listApps", Scope.OWNER),
        ("DELETE", "/players/me/apps/{grant_id}", "revokeApp", Scope.OWNER),
    ),
    *_routes(
        "oauth",
        "oauth",
        # OAuth 2.1 for third-party apps (docs/tokens.md): the metadata, where an app sends the player
        # (a redirect to the web client's consent page), the page's two calls, and the token endpoint,
        # whose form body and client are the credential.
        ("GET", "/.well-known/oauth-authorization-server", "getAuthorizationServerMetadata", PUBLIC),
        ("GET", "/oauth/authorize", "authorizeApp", PUBLIC),
        ("GET", "/oauth/consent", "describeAuthorization", Scope.OWNER),
        ("POST", "/oauth/authorize", "decideAuthorization", Scope.OWNER),
        ("POST", "/oauth/token", "issueAppToken", PUBLIC, _flags(form=True)),
    ),
    *_routes(
        "account",
        "players",
        ("GET", "/players/me/export", "exportMyData", Scope.ACCOUNT_READ),
        ("DELETE", "/players/me", "deleteMe", Scope.OWNER),
    ),
    *_routes(
        "sign_in",
        "email",
        ("POST", "/players/me/email", "attachEmail", Scope.OWNER),
        ("POST", "/players/me/email/verify", "confirmEmail", Scope.OWNER),
        ("POST", "/sessions", "requestSignIn", PUBLIC),
        ("POST", "/sessions/verify", "verifySignIn", PUBLIC),
    ),
    *_routes(
        "games",
        "games",
        ("POST", "/games", "createGame", _P),
        ("GET", "/games", "listOpenGames", _R),
        ("GET", "/games/{game_id}", "getGame", _R, LANE),
        ("GET", "/games/{game_id}/preview", "previewGame", _R),
        ("GET", "/games/{game_id}/rounds", "listRounds", _R),
    ),
    *_routes(
        "games",
        "lobby",
        ("GET", "/games/{game_id}/rematch", "getRematch", _R),
        ("POST", "/games/{game_id}/rematch", "rematchGame", _P),
        ("POST", "/games/{game_id}/invite", "rotateInvite", _P),
        ("POST", "/games/{game_id}/join", "joinGame", _P, LANE),
        ("POST", "/games/{game_id}/leave", "leaveGame", _P, LANE),
        ("POST", "/games/{game_id}/start", "startGame", _P, LANE),
    ),
    *_routes(
        "games",
        "moves",
        ("POST", "/games/{game_id}/clue", "giveClue", _P, LANE),
        ("POST", "/games/{game_id}/submissions", "submitCards", _P, LANE),
        ("POST", "/games/{game_id}/votes", "castVotes", _P, LANE),
    ),
    *_routes(
        "games",
        "absences",
        ("POST", "/games/{game_id}/vacation", "takeVacation", _P, LANE),
        ("POST", "/games/{game_id}/extend", "extendDeadline", _P, LANE),
        ("POST", "/games/{game_id}/offer-seat", "offerSeat", _P, LANE),
        ("POST", "/games/{game_id}/remove-player", "removePlayer", _P, LANE),
    ),
    *_routes(
        "decks",
        "decks",
        ("GET", "/decks", "listDecks", PUBLIC),
        ("POST", "/decks", "createDeck", _D),
        ("GET", "/decks/{deck_id}", "getDeck", _D),
        ("GET", "/decks/{deck_id}/cards", "listDeckCards", PUBLIC),
    ),
    *_routes(
        "notifications",
        "notifications",
        ("GET", "/players/me/notifications", "getNotificationPreferences", _N),
        ("PUT", "/players/me/notifications", "setNotificationPreferences", _N),
        ("GET", "/players/me/devices", "listDevices", _N),
        ("PUT", "/players/me/devices/{device_id}", "registerDevice", _N),
        ("DELETE", "/players/me/devices/{device_id}", "removeDevice", _N),
        ("PUT", "/games/{game_id}/notifications", "muteGame", _N),
        ("POST", "/games/{game_id}/nudges", "nudgeGame", _N),
    ),
    *_routes(
        "web_push",
        "notifications",
        ("GET", "/web-push/key", "getWebPushKey", PUBLIC),
        ("GET", "/players/me/web-push", "listWebPushSubscriptions", _N),
        ("PUT", "/players/me/web-push/{subscription_id}", "storeWebPushSubscription", _N),
        ("DELETE", "/players/me/web-push/{subscription_id}", "removeWebPushSubscription", _N),
    ),
    *_routes(
        "unsubscribe",
        "notifications",
        # One-click unsubscribe: the link's signed token is the credential (RFC 8058).
        ("GET", "/notifications/unsubscribe", "previewUnsubscribe", PUBLIC),
        ("POST", "/notifications/unsubscribe", "unsubscribe", PUBLIC, _flags(form=True)),
    ),
    *_routes(
        "webhooks",
        "webhooks",
        ("POST", "/players/me/webhooks", "createWebhook", _W),
        ("GET", "/players/me/webhooks", "listWebhooks", _W),
        ("GET", "/players/me/webhooks/{webhook_id}", "getWebhook", _W),
        ("DELETE", "/players/me/webhooks/{webhook_id}", "deleteWebhook", _W),
        ("POST", "/players/me/webhooks/{webhook_id}/rotate-secret", "rotateWebhookSecret", _W),
        ("GET", "/players/me/webhooks/{webhook_id}/deliveries", "listWebhookDeliveries", _W),
    ),
    *_routes("webhooks", "games", ("GET", "/games/{game_id}/events", "listGameEvents", _R)),
    *_routes(
        "talk",
        "talk",
        ("POST", "/games/{game_id}/messages", "postMessage", _P),
        ("GET", "/games/{game_id}/messages", "listMessages", _R),
        ("GET", "/games/{game_id}/reactions", "listReactions", _R),
        ("PUT", "/games/{game_id}/reactions/{target}", "setReaction", _P),
        ("DELETE", "/games/{game_id}/reactions/{target}", "removeReaction", _P),
        ("POST", "/games/{game_id}/messages/{message_id}/reports", "reportMessage", _P),
        ("POST", "/games/{game_id}/messages/{message_id}/hide", "hideMessage", _P),
        ("GET", "/players/me/muted-players", "listMutedPlayers", _R),
        ("PUT", "/players/me/muted-players/{player_id}", "mutePlayer", _P),
        ("DELETE", "/players/me/muted-players/{player_id}", "unmutePlayer", _P),
        ("GET", "/players/me/blocks", "listBlockedPlayers", _R),
        ("PUT", "/players/me/blocks/{player_id}", "blockPlayer", _P),
        ("DELETE", "/players/me/blocks/{player_id}", "unblockPlayer", _P),
    ),
    *_routes("live", "live", ("POST", "/live/tickets", "createLiveTicket", _R)),
    *_routes(
        "docs",
        "docs",
        ("GET", "/openapi.json", "getOpenApiDocument", PUBLIC, _flags(documented=False)),
        ("GET", "/docs", "getDocsPage", PUBLIC, _flags(documented=False)),
    ),
)

_BY_REQUEST: dict[tuple[str, str], Route] = {(r.method, r.path): r for r in ROUTES}


def match(method: object, resource: object) -> Route | None:
    """The route a request is for, from the method and the resource API Gateway matched: the one match
    this API makes (None: no route, which the resolver answers with a 404)."""
    return _BY_REQUEST.get((method, resource))  # type: ignore[arg-type]


@cache
def serves(resource: object) -> bool:
    """Whether any route has this resource (a preflight needs no token on a path the API serves)."""
    return any(route.path == resource for route in ROUTES)


@cache
def routers() -> tuple[str, ...]:
    """Every router, in the order of the table (the order the whole API registers them)."""
    return tuple(dict.fromkeys(route.router for route in ROUTES))


@cache
def routes_of(router: str) -> tuple[Route, ...]:
    return tuple(route for route in ROUTES if route.router == router)


_Function = TypeVar("_Function", bound=Callable[..., Any])
# What a route's line says and `@endpoint` must not say again.
_FROM_THE_TABLE = frozenset({"rule", "method", "tags", "operation_id", "security", "include_in_schema"})


@dataclass(frozen=True, slots=True)
class Endpoint:
    function: Callable[..., Any]
    # What only the function's module knows: summary, description, responses (handlers.problems.answers).
    options: dict[str, Any]


@dataclass(slots=True)
class Endpoints:
    """A router module's route functions, each under the operation id of its line in the table.

    `@endpoint("createGame", summary=..., **answers(...))` puts the words of the document next to the
    function; method, path, tag and scope come from the table, never from here.
    """

    found: dict[str, Endpoint] = field(default_factory=dict)

    def __call__(self, operation_id: str, **options: Any) -> Callable[[_Function], _Function]:
        _check(operation_id, options)

        def declare(function: _Function) -> _Function:
            self.add(operation_id, function, **options)
            return function

        return declare

    def add(self, operation_id: str, function: Callable[..., Any], **options: Any) -> None:
        _check(operation_id, options)
        if operation_id in self.found:
            raise ValueError(f"{operation_id} is declared twice")
        self.found[operation_id] = Endpoint(function, options)


def _check(operation_id: str, options: dict[str, Any]) -> None:
    repeated = _FROM_THE_TABLE.intersection(options)
    if repeated:
        raise TypeError(f"{operation_id}: {sorted(repeated)} come from handlers.route_table")
