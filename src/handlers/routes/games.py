"""Games: create, list, look, replay, and every move through one path (`play_move`)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Annotated, Any, Literal

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse
from aws_lambda_powertools.event_handler.request import Request

from app.games import play as games
from app.games.card_descriptions import card_descriptions
from app.games.presented import game_preview, open_game, round_result
from app.games.presenters import names_in
from app.games.schemas import CreateGame, GameOut, GamePreview, OpenGames, RematchOut, Rounds
from handlers.http import (
    POLL_HEADERS,
    Adapters,
    Caller,
    IdempotencyKey,
    IfMatch,
    IfNoneMatch,
    caller,
    check_game_id,
    created,
    game_answer,
    json_response,
    location,
    request_key,
    services,
    to_response,
)
from handlers.problems import answers
from handlers.route_table import Endpoints
from handlers.routes.game_moves import MOVE_ROUTES, MoveRoute, look, play_move, quiet_of

endpoint = Endpoints()

_GAME: dict[int, OpenAPIResponse] = {200: {"description": "The game as you may now see it"}}
MOVE_ANSWERS = answers(_GAME, 400, 401, 403, 404, 409, 412, 413, 415)
SEAT_CHANGE_ANSWERS = answers(_GAME, 400, 401, 403, 404, 409, 412, 413, 415, 429)


@endpoint(
    "createGame",
    summary="Create a game; you are seated as host",
    **answers(created("The new game", "/games/{game_id}"), 400, 401, 403, 404, 409, 413, 415),
)
def create(
    request: Request, body: CreateGame, player: Caller, adapters: Adapters, key: IdempotencyKey = None
) -> Response[GameOut]:
    made = games.create_game(
        adapters,
        player,
        rules=body.rules,
        decks=body.decks,
        max_players=body.max_players,
        target_score=body.target_score,
        visibility=body.visibility,
        move_timeout_hours=body.move_timeout_hours,
        timeout_policy=body.timeout_policy.value,
        vacation_days=body.vacation_days,
        table_talk=body.table_talk.value,
        key=request_key(request, player, key, body),
        host_quiet=quiet_of(adapters, player),
        title=body.title,
    )
    answer = game_answer(adapters, made, player.player_id, status=201)
    # A replayed answer is the stored body, so the id comes from the body either way.
    answer["headers"]["Location"] = location(request, f"/games/{answer['body']['game_id']}")
    return to_response(answer)


@endpoint(
    "listOpenGames",
    summary="Public games still in the lobby",
    **answers({200: {"description": "Lobbies with a free seat, newest first"}}, 401),
)
def list_open(
    player: Caller, adapters: Adapters, status: Annotated[Literal["open"], Query()] = "open"
) -> Response[OpenGames]:
    return json_response(OpenGames(games=[open_game(r) for r in games.list_open_games(adapters)]))


@endpoint(
    "getGame",
    summary="The game as you may see it",
    **answers(
        {
            200: {"description": "The game as you may see it, with its ETag", "headers": POLL_HEADERS},
            304: {
                "description": "Not Modified: your view has not changed",
                "content": {},
                "headers": POLL_HEADERS,
            },
        },
        401,
        403,
        404,
    ),
)
def get(request: Request, game_id: str, if_none_match: IfNoneMatch = None) -> Response[GameOut]:
    # Caller and adapters from the context, not through Depends (see _endpoint): polls are most requests.
    return look(caller(request), services(request), game_id, if_none_match)


@endpoint(
    "previewGame",
    summary="What an invitee may read before joining: host, players, rules, free seats",
    **answers({200: {"description": "The game's join page, with no secret in it"}}, 401, 403, 404, 422),
)
def preview(
    game_id: str,
    player: Caller,
    adapters: Adapters,
    invite_code: Annotated[
        str | None, Query(max_length=64, description="The invite link's code (a private game needs it)")
    ] = None,
) -> Response[GamePreview]:
    record = games.previewed_game(adapters, player, check_game_id(game_id), invite_code)
    return json_response(game_preview(record, player.player_id))


@endpoint(
    "listRounds",
    summary="Every finished round (replay)",
    description=(
        "Each round's history is written from the table's stream, a moment after the vote that scored it: "
        "until then the game's `last_round` has the reveal and this list does not yet."
    ),
    **answers({200: {"description": "The finished rounds, oldest first"}}, 401, 403, 404),
)
def rounds(game_id: str, player: Caller, adapters: Adapters) -> Response[Rounds]:
    record, results = games.list_rounds(adapters, player, check_game_id(game_id))
    names, described = names_in(record.state), card_descriptions(adapters, record)
    return json_response(Rounds(rounds=[round_result(r, names, adapters.images, described) for r in results]))


@endpoint(
    "getRematch",
    summary="A finished game's rematch: its lobby's id, and its join page once a player opened it",
    description="For the finished game's players. `lobby` is null until one of them opens the rematch "
    "(`POST /games/{game_id}/rematch`); then it is the lobby's join page: who opened it and who is in.",
    **answers({200: {"description": "The rematch, opened or not yet"}}, 401, 403, 404, 409),
)
def get_rematch(game_id: str, player: Caller, adapters: Adapters) -> Response[RematchOut]:
    from app.games import rematch as rematches  # once a game: not worth every cold start's import

    lobby_id, lobby = rematches.rematch_lobby(adapters, player, check_game_id(game_id))
    preview = None if lobby is None else game_preview(lobby, player.player_id)
    return json_response(RematchOut(rematch_game_id=lobby_id, lobby=preview))


@endpoint("rematchGame",
    summary="Open (or join) the rematch of a finished game: the same settings, every player invited",
    description="The first call opens the lobby and makes its caller the host, held to a create's quotas; "
    "later calls join it, held to a join's (409 `quota_exceeded`, docs/api.md Quotas and rates).",
    **answers(
        {200: {"description": "The rematch lobby, you seated: every call for one game answers the same one"}},
        401, 403, 404, 409,
    ),
)  # fmt: skip
def rematch(request: Request, game_id: str, player: Caller, adapters: Adapters) -> Response[GameOut]:
    from app.games import rematch as rematches  # once a game: not worth every cold start's import

    played = rematches.rematch(adapters, player, check_game_id(game_id))
    answer = game_answer(adapters, played, player.player_id)
    answer["headers"]["Location"] = location(request, f"/games/{answer['body']['game_id']}")
    return to_response(answer)


@endpoint(
    "rotateInvite",
    summary="Host: a fresh invite code (the old one, and any link holding it, stops working)",
    **answers({200: {"description": "The game with its new invite_code"}}, 401, 403, 404),
)
def invite(game_id: str, player: Caller, adapters: Adapters) -> Response[GameOut]:
    played = games.rotate_invite(adapters, player, check_game_id(game_id))
    return to_response(game_answer(adapters, played, player.player_id))


def _endpoint(route: MoveRoute) -> Callable[..., Response[GameOut]]:
    """A handler for `route` whose signature the resolver reads: validation and OpenAPI come from it."""

    def endpoint(request: Request, **arguments: Any) -> Response[GameOut]:
        # The caller and adapters come straight from the context lambda_handler filled, not through
        # Depends: the resolver rebuilds a route's dependency tree from its type hints on every request.
        path = request.resolved_event.path
        return play_move(route, path, player=caller(request), adapters=services(request), **arguments)

    keyword = inspect.Parameter.KEYWORD_ONLY
    parameters = [
        inspect.Parameter("request", keyword, annotation=Request),
        inspect.Parameter("game_id", keyword, annotation=str),
    ]
    if route.body is not None:
        optional = route.body is not route.body.__args__[0] if hasattr(route.body, "__args__") else False
        parameters.append(
            inspect.Parameter(
                "body", keyword, annotation=route.body, **({"default": None} if optional else {})
            )
        )
    parameters += [
        inspect.Parameter("if_match", keyword, annotation=IfMatch, default=None),
        inspect.Parameter("key", keyword, annotation=IdempotencyKey, default=None),
    ]
    endpoint.__signature__ = inspect.Signature(parameters, return_annotation=Response[GameOut])  # type: ignore[attr-defined]
    # The resolver reads the signature for validation and get_type_hints for injection: both must agree.
    endpoint.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": Response[GameOut]}
    endpoint.__name__ = endpoint.__qualname__ = route.name
    return endpoint


for _route in MOVE_ROUTES:
    endpoint.add(
        _route.operation_id,
        _endpoint(_route),
        summary=_route.summary,
        **(SEAT_CHANGE_ANSWERS if _route.seat_change else MOVE_ANSWERS),
    )
