from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Literal

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query
from aws_lambda_powertools.event_handler.router import APIGatewayRouter
from pydantic import BaseModel

from app import games
from app.etags import game_etag, matches
from app.presenters import open_game, round_result
from app.records import GameRecord, PlayerRecord
from app.schemas import ChooseCards, CreateGame, GameOut, GiveClue, JoinGame, OpenGames, Rounds
from app.services import Services
from handlers.http import (
    BEARER,
    NotModified,
    caller,
    check_game_id,
    game_response,
    header,
    json_response,
    once,
    services,
    to_response,
)

router = APIGatewayRouter()


@router.exception_handler(NotModified)
def not_modified(signal: NotModified) -> Response[None]:
    return Response(status_code=304, headers={"ETag": signal.etag})


@router.post("/games", tags=["games"], summary="Create a game; you are seated as host", security=BEARER)
def create(body: CreateGame) -> Response[GameOut]:
    player = caller(router)

    def compute() -> dict[str, object]:
        record = games.create_game(
            services(router),
            player,
            rules=body.rules,
            decks=body.decks,
            max_players=body.max_players,
            target_score=body.target_score,
            visibility=body.visibility,
        )
        return game_response(router, record, player.player_id, status=201)

    return once(router, player, body, compute)


@router.get("/games", tags=["games"], summary="Public games still in the lobby", security=BEARER)
def list_open(status: Annotated[Literal["open"], Query()] = "open") -> Response[OpenGames]:
    caller(router)
    return json_response(OpenGames(games=[open_game(r) for r in games.list_open_games(services(router))]))


@router.get("/games/<game_id>", tags=["games"], summary="The game as you may see it", security=BEARER)
def get(game_id: str) -> Response[GameOut]:
    player = caller(router)
    record = games.visible_game(services(router), player, check_game_id(game_id))
    etag = game_etag(record.game_id, record.version, player.player_id)
    if matches(header(router, "If-None-Match"), etag):
        raise NotModified(etag)
    return to_response(game_response(router, record, player.player_id))


@router.get(
    "/games/<game_id>/rounds", tags=["games"], summary="Every finished round (replay)", security=BEARER
)
def rounds(game_id: str) -> Response[Rounds]:
    results = games.list_rounds(services(router), caller(router), check_game_id(game_id))
    return json_response(Rounds(rounds=[round_result(r) for r in results]))


# A move use case, given the adapters, the caller, the game id and the caller's If-Match header.
Act = Callable[[Services, PlayerRecord, str, str | None], GameRecord]


def _move(game_id: str, body: BaseModel | None, act: Act) -> Response[GameOut]:
    """Every move route: authenticate, apply at most once per Idempotency-Key, answer the caller's view."""
    player = caller(router)
    checked = check_game_id(game_id)
    if_match = header(router, "If-Match")
    return once(
        router,
        player,
        body,
        lambda: game_response(router, act(services(router), player, checked, if_match), player.player_id),
    )


@router.post("/games/<game_id>/join", tags=["lobby"], summary="Take the next seat", security=BEARER)
def join(game_id: str, body: JoinGame | None = None) -> Response[GameOut]:
    code = body.invite_code if body else None
    return _move(game_id, body, lambda s, p, g, _: games.join_game(s, p, g, code))


@router.post(
    "/games/<game_id>/leave", tags=["lobby"], summary="Leave before the game starts", security=BEARER
)
def leave(game_id: str) -> Response[GameOut]:
    return _move(game_id, None, games.leave_game)


@router.post(
    "/games/<game_id>/start", tags=["lobby"], summary="Deal and start (host, 3+ players)", security=BEARER
)
def start(game_id: str) -> Response[GameOut]:
    return _move(game_id, None, games.start_game)


@router.post(
    "/games/<game_id>/clue",
    tags=["moves"],
    summary="Storyteller: play a card and give the clue",
    security=BEARER,
)
def clue(game_id: str, body: GiveClue) -> Response[GameOut]:
    return _move(game_id, body, lambda s, p, g, m: games.give_clue(s, p, g, body.card_id, body.clue, m))


@router.post(
    "/games/<game_id>/submissions",
    tags=["moves"],
    summary="Put forward your card(s) for the clue",
    security=BEARER,
)
def submit(game_id: str, body: ChooseCards) -> Response[GameOut]:
    return _move(game_id, body, lambda s, p, g, m: games.submit_cards(s, p, g, body.card_ids, m))


@router.post(
    "/games/<game_id>/votes", tags=["moves"], summary="Vote for the storyteller's card", security=BEARER
)
def vote(game_id: str, body: ChooseCards) -> Response[GameOut]:
    return _move(game_id, body, lambda s, p, g, m: games.vote(s, p, g, body.card_ids, m))
