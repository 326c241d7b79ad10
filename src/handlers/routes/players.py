"""Players: register, their sessions and tokens, and what a token holder may ask about themselves."""

from __future__ import annotations

from typing import Annotated, Literal

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query
from aws_lambda_powertools.event_handler.request import Request

from app.core import rates
from app.core.records import PlayerRecord
from app.flows import revoke_credentials
from app.games import play as games
from app.games.presented import inbox_game
from app.games.schemas import Inbox
from app.players import accounts as players
from app.players.schemas import (
    CreatePlayer,
    PlayerCreated,
    PlayerOut,
    RenamePlayer,
    SessionList,
    player_out,
    session_out,
)
from handlers.http import (
    POLL_HEADERS,
    Adapters,
    Caller,
    IdempotencyKey,
    Signed,
    created,
    done,
    json_response,
    new_token_answer,
    no_content,
    poll_headers,
    source_ip,
)
from handlers.problems import answers
from handlers.route_table import Endpoints

endpoint = Endpoints()


@endpoint(
    "registerPlayer",
    summary="Register a player (the token is shown once)",
    description="At most 20 registrations per source address an hour (429 `too_many_registrations`).",
    **answers(created("The player and their token", "/players/me"), 400, 413, 415, 429),
)
def register(request: Request, body: CreatePlayer, adapters: Adapters) -> Response[PlayerCreated]:
    rates.claim(adapters, rates.REGISTRATIONS_PER_SOURCE, rates.source_key(source_ip(request)))
    record, token = players.register(adapters, body.name, body.device)
    return new_token_answer(request, PlayerCreated(player_id=record.player_id, name=record.name, token=token))


@endpoint(
    "rotateToken",
    summary="Rotate your token: a new one (shown once) replaces the one you sent, for this session only",
    description=(
        "With an `Idempotency-Key`, a retry whose answer was lost may be sent with the old token and the "
        "same key: it is answered the same new token (the old one is refused everywhere else). Without "
        "a key, a lost answer leaves the session signed out."
    ),
    **answers(created("You, with your new token", "/players/me"), 400, 401, 409),
)
def rotate_token(
    request: Request, signed: Signed, adapters: Adapters, key: IdempotencyKey = None
) -> Response[PlayerCreated]:
    record, token = players.rotate_token(adapters, signed, key)
    return new_token_answer(request, PlayerCreated(player_id=record.player_id, name=record.name, token=token))


@endpoint(
    "revokeToken",
    summary="Revoke your token: every later request with it is a 401 (your other sessions keep working)",
    **answers(no_content("Revoked"), 401, 409),
)
def revoke_token(signed: Signed, adapters: Adapters) -> Response[None]:
    revoke_credentials.revoke_token(adapters, signed)
    return done()


@endpoint(
    "listSessions",
    summary="Every device signed in as you (never their tokens)",
    **answers({200: {"description": "Your sessions, oldest first"}}, 401),
)
def list_sessions(signed: Signed, adapters: Adapters) -> Response[SessionList]:
    sessions = players.sessions_of(adapters, signed)
    body = SessionList(sessions=[session_out(s, signed.session_id) for s in sessions])
    return json_response(body, headers={"Cache-Control": "no-store"})


@endpoint(
    "endSession",
    summary="Sign one device out (your own session too: then it is a revoke)",
    **answers(no_content("Signed out"), 401, 404, 409),
)
def end_session(session_id: str, signed: Signed, adapters: Adapters) -> Response[None]:
    revoke_credentials.end_session(adapters, signed, session_id)
    return done()


@endpoint(
    "endOtherSessions",
    summary="Sign out everywhere else: every session but this one ends",
    **answers(no_content("Every other session signed out"), 401),
)
def end_other_sessions(signed: Signed, adapters: Adapters) -> Response[None]:
    revoke_credentials.end_other_sessions(adapters, signed)
    return done()


@endpoint(
    "getMe",
    summary="Who the token belongs to",
    **answers({200: {"description": "You"}}, 401),
)
def me(signed: Signed) -> Response[PlayerOut]:
    return json_response(_player_out(signed.player, signed.session_id))


@endpoint(
    "renameMe",
    summary="Change your name: the games you join or create from now on show it",
    description="Games already started or finished keep the name you had in them.",
    **answers({200: {"description": "You, renamed"}}, 400, 401, 413, 415),
)
def rename(body: RenamePlayer, signed: Signed, adapters: Adapters) -> Response[PlayerOut]:
    renamed = players.rename(adapters, signed.player, body.name)
    return json_response(_player_out(renamed, signed.session_id))


def _player_out(player: PlayerRecord, session_id: str) -> PlayerOut:
    return player_out(player, session_id)


@endpoint(
    "listMyGames",
    summary="Your active games, most urgent first; or, with status=finished, your finished games by page",
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
