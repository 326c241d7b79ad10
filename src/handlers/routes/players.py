"""Players: register, and what a token holder may ask about themselves."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.request import Request
from aws_lambda_powertools.event_handler.router import APIGatewayRouter

from app import games, players
from app.presenters import inbox_game
from app.schemas import CreatePlayer, Inbox, PlayerCreated, PlayerOut
from handlers.http import BEARER, Adapters, Caller, created, json_response, location, to_response
from handlers.problems import answers

router = APIGatewayRouter()


@router.post(
    "/players",
    tags=["players"],
    summary="Register a player (the token is shown once)",
    **answers(created("The player and their token", "/players/me"), 400, 413, 415),
)
def register(request: Request, body: CreatePlayer, adapters: Adapters) -> Response[PlayerCreated]:
    record, token = players.register(adapters, body.name)
    return _token_answer(request, PlayerCreated(player_id=record.player_id, name=record.name, token=token))


def _token_answer(request: Request, shown: PlayerCreated) -> Response[Any]:
    # A token must not linger in a shared cache or the browser's history of responses.
    return to_response(
        {
            "status": 201,
            "body": shown.model_dump(mode="json"),
            "headers": {"Location": location(request, "/players/me"), "Cache-Control": "no-store"},
        }
    )


@router.post(
    "/players/me/tokens",
    tags=["players"],
    summary="Rotate your token: a new one (shown once) replaces the one you sent",
    security=BEARER,
    **answers(created("You, with your new token", "/players/me"), 401, 409),
)
def rotate_token(request: Request, player: Caller, adapters: Adapters) -> Response[PlayerCreated]:
    record, token = players.rotate_token(adapters, player)
    return _token_answer(request, PlayerCreated(player_id=record.player_id, name=record.name, token=token))


@router.delete(
    "/players/me/tokens/current",
    tags=["players"],
    summary="Revoke your token: every later request with it is a 401",
    security=BEARER,
    **answers({204: {"description": "Revoked", "content": {}}}, 401, 409),
)
def revoke_token(player: Caller, adapters: Adapters) -> Response[None]:
    players.revoke_token(adapters, player)
    return Response(status_code=204)


@router.get(
    "/players/me",
    tags=["players"],
    summary="Who the token belongs to",
    security=BEARER,
    **answers({200: {"description": "You"}}, 401),
)
def me(player: Caller) -> Response[PlayerOut]:
    return json_response(PlayerOut(player_id=player.player_id, name=player.name))


@router.get(
    "/players/me/games",
    tags=["players"],
    summary="Your games, most urgent first",
    security=BEARER,
    **answers({200: {"description": "Your games"}}, 401),
)
def my_games(player: Caller, adapters: Adapters) -> Response[Inbox]:
    return json_response(Inbox(games=[inbox_game(e) for e in games.inbox(adapters, player)]))
