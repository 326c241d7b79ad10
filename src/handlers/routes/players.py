from __future__ import annotations

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.router import APIGatewayRouter

from app import games, players
from app.presenters import inbox_game
from app.schemas import CreatePlayer, Inbox, PlayerCreated, PlayerOut
from handlers.http import BEARER, caller, json_response, services

router = APIGatewayRouter()


@router.post("/players", tags=["players"], summary="Register a player (the token is shown once)")
def register(body: CreatePlayer) -> Response[PlayerCreated]:
    record, token = players.register(services(router), body.name)
    return json_response(PlayerCreated(player_id=record.player_id, name=record.name, token=token), status=201)


@router.get("/players/me", tags=["players"], summary="Who the token belongs to", security=BEARER)
def me() -> Response[PlayerOut]:
    player = caller(router)
    return json_response(PlayerOut(player_id=player.player_id, name=player.name))


@router.get("/players/me/games", tags=["players"], summary="Your games, most urgent first", security=BEARER)
def my_games() -> Response[Inbox]:
    entries = games.inbox(services(router), caller(router))
    return json_response(Inbox(games=[inbox_game(e) for e in entries]))
