"""Table talk: a game's messages (`/games/{game_id}/messages`), held to its `table_talk` setting."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query
from aws_lambda_powertools.event_handler.request import Request

from app.flows import table_talk
from app.talk import messages
from app.talk.schemas import MessageOut, MessagePageOut, PostMessage, message_out, page_out
from handlers.http import Adapters, Caller, check_game_id, created, json_response, location
from handlers.problems import answers
from handlers.route_table import Endpoints

endpoint = Endpoints()


@endpoint(
    "postMessage",
    summary="Say something at the game's table (when its table_talk setting lets the table talk)",
    description="Seated players only. Refused with 409 `table_talk_closed` while cards are chosen and votes "
    "cast (the detail says talk opens again at the reveal) and `table_talk_off` in a game without talk; "
    "429 `too_many_messages` with Retry-After past the rates (docs/table-talk.md).",
    **answers(
        created("The message as stored", "/games/{game_id}/messages"), 400, 401, 403, 404, 409, 413, 415, 429
    ),
)
def post(
    request: Request, game_id: str, body: PostMessage, player: Caller, adapters: Adapters
) -> Response[MessageOut]:
    message = table_talk.post_and_tell(adapters, player, check_game_id(game_id), body.text)
    headers = {"Location": location(request, f"/games/{game_id}/messages")}
    return json_response(message_out(message), 201, headers)


@endpoint(
    "listMessages",
    summary="The game's table talk, newest first, a page at a time",
    description="Members read; so does anyone when the game is public (as its view). `talk` says whether "
    "the table may talk now, and if not, when again.",
    **answers({200: {"description": "A page of messages, newest first"}}, 401, 403, 404),
)
def listing(
    game_id: str,
    player: Caller,
    adapters: Adapters,
    before: Annotated[
        str | None, Query(max_length=32, description="A message id from an earlier page; none for the newest")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=messages.PAGE_MAX)] = messages.PAGE_DEFAULT,
) -> Response[MessagePageOut]:
    page = messages.list_messages(adapters, player, check_game_id(game_id), before=before, limit=limit)
    return json_response(page_out(page))
