"""Table talk: a game's messages (`/games/{game_id}/messages`), held to its `table_talk` setting."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Path, Query
from aws_lambda_powertools.event_handler.request import Request

from app.flows import table_talk
from app.games import keyed
from app.talk import blocks, messages, mutes, reactions, reports
from app.talk.schemas import (
    BlockedOut,
    MessageOut,
    MessagePageOut,
    MutedOut,
    PostMessage,
    React,
    ReactionOut,
    ReactionsOut,
    ReportMessage,
    ReportOut,
    message_out,
    page_out,
    reaction_out,
    reactions_out,
)
from handlers.http import (
    Adapters,
    Caller,
    IdempotencyKey,
    check_game_id,
    created,
    done,
    json_response,
    location,
    no_content,
    request_key,
    to_response,
)
from handlers.problems import answers
from handlers.route_table import Endpoints

endpoint = Endpoints()
OtherPlayer = Annotated[str, Path(max_length=64, description="The player's id")]
MessageId = Annotated[str, Path(pattern=messages.MESSAGE_ID.pattern, description="The message's id")]


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
    request: Request,
    game_id: str,
    body: PostMessage,
    player: Caller,
    adapters: Adapters,
    key: IdempotencyKey = None,
) -> Response[MessageOut]:
    checked = check_game_id(game_id)

    def compute() -> dict[str, object]:
        message = table_talk.post_and_tell(adapters, player, checked, body.text)
        return message_out(message).model_dump(mode="json")

    # A retry whose first answer was lost says the message once, not twice (docs/api.md, "Retries"). Like
    # a deck's, the answer is stored just after the message: should that one write fail, a retry posts again.
    said = keyed.answer_once(adapters, request_key(request, player, key, body), compute)
    headers = {"Location": location(request, f"/games/{game_id}/messages")}
    return to_response({"status": 201, "body": said, "headers": headers})


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


@endpoint(
    "setReaction",
    summary="React to a revealed round (round-<n>) or a message: one reaction per player per target",
    description="Seated players only, when the table may talk (as messages); a new reaction replaces yours. "
    "409 `round_not_revealed` for a round not yet revealed, 404 `reaction_target_not_found` for no such "
    "message (or one the host hid) and for a round a finished game never played, 429 `too_many_reactions` "
    "past 30 a minute at one table.",
    **answers({200: {"description": "Your reaction"}}, 400, 401, 403, 404, 409, 413, 415, 429),
)
def react(
    game_id: str, target: Annotated[str, Path(max_length=32)], body: React, player: Caller, adapters: Adapters
) -> Response[ReactionOut]:
    record = table_talk.react_and_tell(adapters, player, check_game_id(game_id), target, body.reaction)
    return json_response(reaction_out(record))


@endpoint(
    "removeReaction",
    summary="Take your reaction to a round or a message back",
    **answers(no_content("No reaction of yours to it any more"), 401, 403, 404, 409),
)
def unreact(
    game_id: str, target: Annotated[str, Path(max_length=32)], player: Caller, adapters: Adapters
) -> Response[None]:
    table_talk.unreact_and_tell(adapters, player, check_game_id(game_id), target)
    return done()


@endpoint(
    "listReactions",
    summary="The reactions at the game's table, counted by target, with yours",
    description="Members read; so does anyone when the game is public (as its view).",
    **answers({200: {"description": "Every target reacted to"}}, 401, 403, 404),
)
def reactions_listing(game_id: str, player: Caller, adapters: Adapters) -> Response[ReactionsOut]:
    return json_response(reactions_out(reactions.reactions_at(adapters, player, check_game_id(game_id))))


@endpoint(
    "listMutedPlayers",
    summary="The players whose table talk is hidden from you",
    **answers({200: {"description": "Whom you muted"}}, 401, 403),
)
def muted(player: Caller, adapters: Adapters) -> Response[MutedOut]:
    return json_response(MutedOut(muted=mutes.muted(adapters, player)))


@endpoint(
    "mutePlayer",
    summary="Hide a player's table talk from you, at every table, until you unmute them",
    description="Yours alone: they are not told. 422 `cannot_mute_yourself`, 404 `player_not_found`, "
    f"409 `too_many_mutes` past {mutes.MAX_MUTED}.",
    **answers(no_content("Muted"), 401, 403, 404, 409),
)
def mute(
    player_id: Annotated[str, Path(max_length=64)], player: Caller, adapters: Adapters
) -> Response[None]:
    mutes.mute(adapters, player, player_id)
    return done()


@endpoint(
    "unmutePlayer",
    summary="Read a muted player's table talk again",
    **answers(no_content("Not muted (any more)"), 401, 403),
)
def unmute(
    player_id: Annotated[str, Path(max_length=64)], player: Caller, adapters: Adapters
) -> Response[None]:
    mutes.unmute(adapters, player, player_id)
    return done()


@endpoint(
    "listBlockedPlayers",
    summary="The players you blocked",
    **answers({200: {"description": "Whom you blocked"}}, 401, 403),
)
def blocked(player: Caller, adapters: Adapters) -> Response[BlockedOut]:
    return json_response(BlockedOut(blocked=blocks.blocked(adapters, player)))


@endpoint(
    "blockPlayer",
    summary="Block a player: muted for you, and neither of you joins a public table the other sits at",
    description="Yours alone: they are not told. A join refused by a block is 403 `player_blocked`; their "
    "private game's invitation seats you no more, and yours no longer seats them, answered as a stale "
    "invite code (`bad_invite_code`). 422 `cannot_block_yourself`, 404 `player_not_found`, 409 "
    f"`too_many_blocks` past {blocks.MAX_BLOCKED}. Unblocking unmutes them too.",
    **answers(no_content("Blocked"), 401, 403, 404, 409),
)
def block(
    player_id: Annotated[str, Path(max_length=64)], player: Caller, adapters: Adapters
) -> Response[None]:
    blocks.block(adapters, player, player_id)
    return done()


@endpoint(
    "unblockPlayer",
    summary="Unblock a player (and unmute them): tables and their talk are open between you again",
    **answers(no_content("Not blocked (any more)"), 401, 403),
)
def unblock(
    player_id: Annotated[str, Path(max_length=64)], player: Caller, adapters: Adapters
) -> Response[None]:
    blocks.unblock(adapters, player, player_id)
    return done()


@endpoint(
    "reportMessage",
    summary="Report a message at your table (the host may then hide it)",
    description="Seated players, not the author. Kept with you and the reason; counted (with an alarm). "
    "404 `message_not_found`, 422 `cannot_report_yourself`, 429 `too_many_reports` past 20 a day.",
    **answers({200: {"description": "Reported"}}, 400, 401, 403, 404, 413, 415, 429),
)
def report(
    game_id: str, message_id: MessageId, body: ReportMessage, player: Caller, adapters: Adapters
) -> Response[ReportOut]:
    new = reports.report(adapters, player, check_game_id(game_id), message_id, body.reason)
    return json_response(ReportOut(message_id=message_id, new=new))


@endpoint(
    "hideMessage",
    summary="Hide a reported message at your table (host only): nobody reads its words any more",
    **answers(no_content("Hidden"), 401, 403, 404, 409),
)
def hide(game_id: str, message_id: MessageId, player: Caller, adapters: Adapters) -> Response[None]:
    table_talk.hide_and_tell(adapters, player, check_game_id(game_id), message_id)
    return done()
