"""Games: create, list, look, replay, and every move through one path (`_play`)."""

from __future__ import annotations

from typing import Annotated, Literal

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse
from aws_lambda_powertools.event_handler.request import Request
from aws_lambda_powertools.event_handler.router import APIGatewayRouter
from pydantic import BaseModel

from app.core.records import PlayerRecord
from app.core.services import Services
from app.games import play as games
from app.games.presenters import names_in, open_game, round_result
from app.games.schemas import ChooseCards, CreateGame, GameOut, GiveClue, JoinGame, OpenGames, Rounds
from dixit import moves
from handlers.etags import expected_version, game_etag, matches
from handlers.http import (
    BEARER,
    POLL_HEADERS,
    Adapters,
    Caller,
    IdempotencyKey,
    IfMatch,
    IfNoneMatch,
    NotModified,
    check_game_id,
    created,
    game_answer,
    json_response,
    location,
    poll_headers,
    presenter,
    request_key,
    to_response,
)
from handlers.problems import answers

router = APIGatewayRouter()

_GAME: dict[int, OpenAPIResponse] = {200: {"description": "The game as you may now see it"}}
MOVE_ANSWERS = answers(_GAME, 400, 401, 403, 404, 409, 412, 413, 415)


@router.exception_handler(NotModified)
def not_modified(signal: NotModified) -> Response[None]:
    return Response(status_code=304, headers={"ETag": signal.etag, **signal.headers})


@router.post(
    "/games",
    tags=["games"],
    summary="Create a game; you are seated as host",
    security=BEARER,
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
        key=request_key(request, player, key, body),
        present=presenter(adapters, player.player_id),
    )
    answer = game_answer(adapters, made, player.player_id, status=201)
    # A replayed answer is the stored body, so the id comes from the body either way.
    answer["headers"]["Location"] = location(request, f"/games/{answer['body']['game_id']}")
    return to_response(answer)


@router.get(
    "/games",
    tags=["games"],
    summary="Public games still in the lobby",
    security=BEARER,
    **answers({200: {"description": "Lobbies with a free seat, newest first"}}, 401),
)
def list_open(
    player: Caller, adapters: Adapters, status: Annotated[Literal["open"], Query()] = "open"
) -> Response[OpenGames]:
    return json_response(OpenGames(games=[open_game(r) for r in games.list_open_games(adapters)]))


@router.get(
    "/games/<game_id>",
    tags=["games"],
    summary="The game as you may see it",
    security=BEARER,
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
def get(
    game_id: str, player: Caller, adapters: Adapters, if_none_match: IfNoneMatch = None
) -> Response[GameOut]:
    checked = check_game_id(game_id)
    polling = poll_headers(adapters)
    if if_none_match is not None:
        # A poll: the version alone decides, read by projection; the state is read only when it changed.
        stamp = games.game_stamp(adapters, player, checked)
        if stamp is not None:
            etag = game_etag(checked, stamp.version, player.player_id)
            if matches(if_none_match, etag):
                raise NotModified(etag, polling)
    record = games.visible_game(adapters, player, checked)
    etag = game_etag(record.game_id, record.version, player.player_id)
    if matches(if_none_match, etag):
        raise NotModified(etag, polling)
    answer = game_answer(adapters, record, player.player_id)
    answer["headers"].update(polling)
    return to_response(answer)


@router.get(
    "/games/<game_id>/rounds",
    tags=["games"],
    summary="Every finished round (replay)",
    security=BEARER,
    **answers({200: {"description": "The finished rounds, oldest first"}}, 401, 403, 404),
)
def rounds(game_id: str, player: Caller, adapters: Adapters) -> Response[Rounds]:
    record, results = games.list_rounds(adapters, player, check_game_id(game_id))
    names = names_in(record.state)
    return json_response(Rounds(rounds=[round_result(r, names, adapters.images) for r in results]))


def _play(
    request: Request,
    adapters: Services,
    player: PlayerRecord,
    game_id: str,
    move: moves.Move,
    body: BaseModel | None,
    *,
    if_match: str | None,
    key: str | None,
    invite_code: str | None = None,
) -> Response[GameOut]:
    """Every move route: apply at most once per Idempotency-Key, under If-Match, and show the result."""
    checked = check_game_id(game_id)
    version = expected_version(if_match, checked, player.player_id)

    keyed = request_key(request, player, key, body)
    if keyed is None:
        record = games.play(
            adapters, player, checked, move, expected_version=version, invite_code=invite_code
        )
        return to_response(game_answer(adapters, record, player.player_id))
    answer = games.play_once(
        adapters,
        player,
        checked,
        move,
        key=keyed,
        present=presenter(adapters, player.player_id),
        expected_version=version,
        invite_code=invite_code,
    )
    return to_response(game_answer(adapters, answer, player.player_id))


@router.post(
    "/games/<game_id>/join",
    tags=["lobby"],
    summary="Take the next seat",
    security=BEARER,
    **MOVE_ANSWERS,
)
def join(
    request: Request,
    game_id: str,
    player: Caller,
    adapters: Adapters,
    body: JoinGame | None = None,
    if_match: IfMatch = None,
    key: IdempotencyKey = None,
) -> Response[GameOut]:
    move = moves.Join(player.player_id, player.name)
    code = body.invite_code if body else None
    return _play(request, adapters, player, game_id, move, body, if_match=if_match, key=key, invite_code=code)


@router.post(
    "/games/<game_id>/leave",
    tags=["lobby"],
    summary="Leave before the game starts",
    security=BEARER,
    **MOVE_ANSWERS,
)
def leave(
    request: Request,
    game_id: str,
    player: Caller,
    adapters: Adapters,
    if_match: IfMatch = None,
    key: IdempotencyKey = None,
) -> Response[GameOut]:
    move = moves.Leave(player.player_id)
    return _play(request, adapters, player, game_id, move, None, if_match=if_match, key=key)


@router.post(
    "/games/<game_id>/start",
    tags=["lobby"],
    summary="Deal and start (host, 3+ players)",
    security=BEARER,
    **MOVE_ANSWERS,
)
def start(
    request: Request,
    game_id: str,
    player: Caller,
    adapters: Adapters,
    if_match: IfMatch = None,
    key: IdempotencyKey = None,
) -> Response[GameOut]:
    move = moves.Start(player.player_id)
    return _play(request, adapters, player, game_id, move, None, if_match=if_match, key=key)


@router.post(
    "/games/<game_id>/clue",
    tags=["moves"],
    summary="Storyteller: play a card and give the clue",
    security=BEARER,
    **MOVE_ANSWERS,
)
def clue(
    request: Request,
    game_id: str,
    body: GiveClue,
    player: Caller,
    adapters: Adapters,
    if_match: IfMatch = None,
    key: IdempotencyKey = None,
) -> Response[GameOut]:
    move = moves.GiveClue(player.player_id, body.card_id, body.clue)
    return _play(request, adapters, player, game_id, move, body, if_match=if_match, key=key)


@router.post(
    "/games/<game_id>/submissions",
    tags=["moves"],
    summary="Put forward your card(s) for the clue",
    security=BEARER,
    **MOVE_ANSWERS,
)
def submit(
    request: Request,
    game_id: str,
    body: ChooseCards,
    player: Caller,
    adapters: Adapters,
    if_match: IfMatch = None,
    key: IdempotencyKey = None,
) -> Response[GameOut]:
    move = moves.Submit(player.player_id, tuple(body.card_ids))
    return _play(request, adapters, player, game_id, move, body, if_match=if_match, key=key)


@router.post(
    "/games/<game_id>/votes",
    tags=["moves"],
    summary="Vote for the storyteller's card",
    security=BEARER,
    **MOVE_ANSWERS,
)
def vote(
    request: Request,
    game_id: str,
    body: ChooseCards,
    player: Caller,
    adapters: Adapters,
    if_match: IfMatch = None,
    key: IdempotencyKey = None,
) -> Response[GameOut]:
    move = moves.Vote(player.player_id, tuple(body.card_ids))
    return _play(request, adapters, player, game_id, move, body, if_match=if_match, key=key)
