"""Players: register, and what a token holder may ask about themselves."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.router import APIGatewayRouter

from app import games, players
from app.presenters import inbox_game
from app.schemas import CreatePlayer, Inbox, PlayerCreated, PlayerOut
from handlers.http import BEARER, Adapters, Caller, json_response
from handlers.problems import answers

router = APIGatewayRouter()


@router.post(
    "/players",
    tags=["players"],
    summary="Register a player (the token is shown once)",
    **answers({201: {"description": "The player and their token"}}, 400, 413),
)
def register(body: CreatePlayer, adapters: Adapters) -> Response[PlayerCreated]:
    record, token = players.register(adapters, body.name)
    return json_response(PlayerCreated(player_id=record.player_id, name=record.name, token=token), status=201)


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
