"""Players: register, and what a token holder may ask about themselves."""

from __future__ import annotations

from typing import Annotated, Literal

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query
from aws_lambda_powertools.event_handler.router import APIGatewayRouter

from app import games, players
from app.presenters import inbox_game
from app.schemas import CreatePlayer, Inbox, PlayerCreated, PlayerOut
from handlers.http import BEARER, POLL_HEADERS, Adapters, Caller, json_response, poll_headers
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
    summary="Your active games, most urgent first; or, with status=finished, your finished games by page",
    security=BEARER,
    **answers({200: {"description": "Your games", "headers": POLL_HEADERS}}, 401, 422),
)
def my_games(
    player: Caller,
    adapters: Adapters,
    status: Annotated[
        Literal["active", "finished"],
        Query(description="active (default): games in play or in the lobby; finished: newest first, by page"),
    ] = "active",
    cursor: Annotated[
        str | None, Query(max_length=200, description="next_cursor from the previous finished page")
    ] = None,
) -> Response[Inbox]:
    if status == "finished":
        page = games.finished_games(adapters, player, cursor)
    else:
        page = games.inbox(adapters, player)
    body = Inbox(games=[inbox_game(e) for e in page.entries], next_cursor=page.next_cursor)
    return json_response(body, headers=poll_headers(adapters))
