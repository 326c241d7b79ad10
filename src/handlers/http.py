"""What the routers share: the injected caller and adapters, the caching and idempotency headers, answers."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any, TypeVar, get_type_hints

from aws_lambda_powertools.event_handler import Depends, Response, content_types
from aws_lambda_powertools.event_handler.openapi.params import Header
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse, OpenAPIResponseHeader
from aws_lambda_powertools.event_handler.request import Request
from pydantic import BaseModel

from app.core.errors import NotAuthenticated, NotFound
from app.core.records import PlayerRecord
from app.games import idempotency
from app.games.idempotency import RequestKey
from app.games.play import Played
from app.players.accounts import SignedIn
from app.services import Services
from handlers.etags import game_etag
from handlers.problems import header

_GAME_ID = re.compile(r"^g_[0-9a-f]{16}$")
BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]


_Dependency = TypeVar("_Dependency", bound=Callable[..., Any])


def hinted(dependency: _Dependency) -> _Dependency:
    """The resolver reads a dependency's type hints on every request it injects (Powertools rebuilds the
    dependency tree each time): evaluated once here, they are not compiled again from strings."""
    dependency.__annotations__ = get_type_hints(dependency, include_extras=True)
    return dependency


@hinted
def services(request: Request) -> Services:
    """The adapters lambda_handler built for this invocation."""
    found: Services = request.context["services"]
    return found


@hinted
def caller(request: Request) -> PlayerRecord:
    """The player lambda_handler authenticated before routing (every route but the public ones)."""
    player: PlayerRecord = _authenticated(request, "player")
    return player


@hinted
def signed_in(request: Request) -> SignedIn:
    """The caller and the session of their token (what the session routes act on)."""
    signed: SignedIn = _authenticated(request, "signed")
    return signed


def _authenticated(request: Request, name: str) -> Any:
    """What lambda_handler put in the context under `name` once the token checked out; 401 without it."""
    found = request.context.get(name)
    if found is None:
        raise NotAuthenticated("missing_token", "send 'Authorization: Bearer <token>'")
    return found


Adapters = Annotated[Services, Depends(services)]
Caller = Annotated[PlayerRecord, Depends(caller)]
Signed = Annotated[SignedIn, Depends(signed_in)]
IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        min_length=1,
        max_length=idempotency.MAX_KEY_LENGTH,
        # RFC 9110 field text (printable ASCII), not only spaces: no control character, DEL included.
        pattern=r"^[\x20-\x7e]*[\x21-\x7e][\x20-\x7e]*$",
        description="Retry-safe POST: the first answer is replayed; the same key with another body is a 422.",
    ),
]
# RFC 9110: "*" or a comma-separated list of entity tags; anything else is 400 malformed_if_match. An
# empty header says nothing, as if it were not sent.
_TAG = r'(?:\*|(?:W/)?"[\x21\x23-\x7e]*")'
IF_MATCH_PATTERN = rf"^[ \t]*(?:{_TAG}(?:[ \t]*,[ \t]*{_TAG})*)?[ \t]*$"
IfMatch = Annotated[
    str | None,
    Header(
        alias="If-Match",
        pattern=IF_MATCH_PATTERN,
        description=(
            "ETag from GET /games/{game_id}: apply only if the game has not changed (else 412). "
            "Empty: as if not sent. Not a list of entity tags (unquoted...): 400 malformed_if_match."
        ),
    ),
]
IfNoneMatch = Annotated[
    str | None,
    Header(
        alias="If-None-Match",
        description="ETag from an earlier GET: 304 Not Modified while the game is unchanged for you.",
    ),
]


class NotModified(Exception):
    """Answer 304 for this ETag.

    Raised rather than returned: the resolver validates a route's return value against its response
    model, and a body-less 304 would fail that check and surface as a 500.
    """

    def __init__(self, etag: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(etag)
        self.etag = etag
        self.headers = headers or {}

    def response(self) -> Response[None]:
        """The 304 itself, as the resolver's exception handler and the direct lane both answer it."""
        return Response(status_code=304, headers={"ETag": self.etag, **self.headers})


def source_ip(request: Request) -> str:
    """Where the request came from, as API Gateway saw it (what the per-source limits count)."""
    context = request.resolved_event.raw_event.get("requestContext") or {}
    identity = context.get("identity") or {}
    return str(identity.get("sourceIp") or "unknown")


def location(request: Request, path: str) -> str:
    """`path` as the client reaches it: on the execute-api domain, URLs start with the stage.

    Elsewhere (a custom domain without a base path, the local stack) the API is served at the root.
    """
    context = request.resolved_event.raw_event.get("requestContext") or {}
    if ".execute-api." in str(context.get("domainName") or "") and context.get("stage"):
        return f"/{context['stage']}{path}"
    return path


def created(description: str, where: str) -> dict[int, OpenAPIResponse]:
    """A 201 answer, with the Location of what it created."""
    return {201: _with_location(description, f"Where the new resource lives: {where}")}


def accepted(description: str, where: str) -> dict[int, OpenAPIResponse]:
    """A 202 answer, with the Location where its effect shows (RFC 9110: a status monitor)."""
    return {202: _with_location(description, f"Where to watch what it set off: {where}")}


def no_content(description: str) -> dict[int, OpenAPIResponse]:
    """A 204 answer: done, and nothing to show."""
    return {204: {"description": description, "content": {}}}


def _with_location(description: str, meaning: str) -> OpenAPIResponse:
    return {"description": description, "headers": {"Location": header(meaning, required=True)}}


def check_game_id(game_id: str) -> str:
    if not _GAME_ID.fullmatch(game_id):
        # Not echoed: a path segment can be kilobytes of anything (control characters, markup).
        raise NotFound("game_not_found", "there is no game with this id")
    return game_id


def body_answer(body: dict[str, Any], viewer_id: str | None, status: int = 200) -> dict[str, Any]:
    """A game view's body as an answer: status, body and the viewer's ETag."""
    return {
        "status": status,
        "body": body,
        "headers": {"ETag": game_etag(body["game_id"], body["version"], viewer_id)},
    }


def game_answer(
    adapters: Services, played: Played, viewer_id: str | None, status: int = 200
) -> dict[str, Any]:
    """What the move path produced (a game, or the body a keyed request stored) as an answer with the
    viewer's ETag."""
    return body_answer(played.view(adapters, viewer_id), viewer_id, status)


POLL_HEADERS: dict[str, OpenAPIResponseHeader] = {
    "Cache-Control": {
        "description": "`private, max-age=N`: poll again after N seconds (3600 by default; see README)",
        "schema": {"type": "string"},
    },
    "Retry-After": {"description": "The same interval, in seconds", "schema": {"type": "integer"}},
}


def poll_headers(adapters: Services) -> dict[str, str]:
    """When to ask again: on every answer to a GET a client polls (the game, the inbox), 304s included."""
    seconds = adapters.settings.poll_seconds
    return {"Cache-Control": f"private, max-age={seconds}", "Retry-After": str(seconds)}


def to_response(answer: dict[str, Any]) -> Response[Any]:
    return Response(
        status_code=answer["status"],
        content_type=content_types.APPLICATION_JSON,
        body=answer["body"],
        headers=answer.get("headers") or {},
    )


def json_response(
    model: BaseModel, status: int = 200, headers: dict[str, str] | None = None
) -> Response[Any]:
    return to_response({"status": status, "body": model.model_dump(mode="json"), "headers": headers})


def put_response(request: Request, model: BaseModel, *, is_new: bool, where: str) -> Response[Any]:
    """A PUT's answer: 201 with the Location of `where` when it made the resource, else 200."""
    if not is_new:
        return json_response(model)
    return json_response(model, status=201, headers={"Location": location(request, where)})


def done() -> Response[None]:
    """The 204 No Content answer of a route that only acts."""
    return Response(status_code=204)


def no_store_response(request: Request, model: BaseModel, status: int, where: str) -> Response[Any]:
    """An answer no cache may keep (it shows a token or a secret once, or a code's news), with the
    Location of `where`."""
    headers = {"Location": location(request, where), "Cache-Control": "no-store"}
    return json_response(model, status=status, headers=headers)


def new_token_answer(request: Request, shown: BaseModel) -> Response[Any]:
    """The 201 that shows a new token (once), at /players/me: a register, a rotation, a sign-in."""
    # A token must not linger in a shared cache or the browser's history of responses.
    return no_store_response(request, shown, 201, "/players/me")


def request_key(
    request: Request, player: PlayerRecord, key: str | None, body: BaseModel | None
) -> RequestKey | None:
    """What makes a POST retry-safe: the caller's `Idempotency-Key` on this route with this body."""
    return key_of(f"{request.method} {request.resolved_event.path}", player, key, body)


def key_of(route: str, player: PlayerRecord, key: str | None, body: BaseModel | None) -> RequestKey | None:
    """`request_key` for a request named by its method and path ("POST /games/g_…/clue")."""
    if key is None:
        return None
    return RequestKey.of(
        player_id=player.player_id,
        key=key,
        route=route,
        body=None if body is None else body.model_dump(mode="json"),
    )
