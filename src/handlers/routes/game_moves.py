"""The game routes a player's turn and a look at a game run: every move through one path (`play_move`),
and `look` (the view, or 304 while it is unchanged).

Apart from the game router (handlers.routes.games, which registers these as routes with the resolver)
because the direct lane (handlers.hot_routes) runs them on most requests: they import the move bodies
alone, not the classes of the answers the other game routes validate (issue 36).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools.event_handler import Response

from app.core.records import PlayerRecord
from app.games import play as games
from app.games import quotas
from app.games.move_bodies import ChooseCards, GiveClue, JoinGame, NamePlayer, TakeVacation
from app.services import Services
from dixit import moves
from dixit.lean_dataclass import dataclass
from handlers.etags import expected_version, game_etag, matches
from handlers.http import NotModified, check_game_id, game_answer, key_of, poll_headers, to_response

if TYPE_CHECKING:
    from pydantic import BaseModel

    from app.games.schemas import GameOut


def quiet_of(adapters: Services, player: PlayerRecord) -> Any:
    """The player's quiet hours for a seat they take (a new game, a join): their preferences are read
    then and only then, so the notification modules stay out of a move's cold start."""
    from app.notify import my_preferences

    return my_preferences.seat_quiet_of(adapters, player.player_id)


def look(
    player: PlayerRecord, adapters: Services, game_id: str, if_none_match: str | None
) -> Response[GameOut]:
    """The game as `player` may see it, or NotModified while their view is unchanged (a poll)."""
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
    answer = game_answer(adapters, games.Played(record), player.player_id)
    answer["headers"].update(polling)
    return to_response(answer)


@dataclass(frozen=True, slots=True)
class MoveRoute:
    """One move's route: every move shares the same handling (`play_move`), only these differ."""

    operation_id: str  # its line in handlers.route_table (method, path, tag, scope)
    name: str  # the handler's name
    summary: str
    make: Callable[[PlayerRecord, Any], moves.Move]
    body: Any = None  # the body's model; None: the route takes no body
    optional_body: bool = False
    invite_code: Callable[[Any], str | None] = lambda body: None
    seat_change: bool = False  # a join or a leave: counted against quotas.SEAT_CHANGES_PER_GAME_HOUR (429)


MOVE_ROUTES = (
    MoveRoute(
        "joinGame",
        "join",
        "Take the next seat",
        lambda player, body: moves.Join(player.player_id, player.name),
        body=JoinGame | None,
        optional_body=True,
        invite_code=lambda body: body.invite_code if body else None,
        seat_change=True,
    ),
    MoveRoute(
        "leaveGame",
        "leave",
        "Leave before the game starts",
        lambda player, body: moves.Leave(player.player_id),
        seat_change=True,
    ),
    MoveRoute(
        "startGame",
        "start",
        "Deal and start (host, 3+ players)",
        lambda player, body: moves.Start(player.player_id),
    ),
    MoveRoute(
        "giveClue",
        "clue",
        "Storyteller: play a card and give the clue",
        lambda player, body: moves.GiveClue(player.player_id, body.card_id, body.clue),
        body=GiveClue,
    ),
    MoveRoute(
        "submitCards",
        "submit",
        "Put forward your card(s) for the clue",
        lambda player, body: moves.Submit(player.player_id, tuple(body.card_ids)),
        body=ChooseCards,
    ),
    MoveRoute(
        "castVotes",
        "vote",
        "Vote for the storyteller's card",
        lambda player, body: moves.Vote(player.player_id, tuple(body.card_ids)),
        body=ChooseCards,
    ),
    # --- absences (#21): vacations, extensions, offered seats ---
    MoveRoute(
        "takeVacation",
        "vacation",
        "Declare a vacation: your deadlines stop for that many days (capped per game)",
        lambda player, body: moves.Vacation(player.player_id, body.days),
        body=TakeVacation,
    ),
    MoveRoute(
        "extendDeadline",
        "extend",
        "Give the player everyone waits on 24 more hours (once per owed move)",
        lambda player, body: moves.Extend(player.player_id, body.player_id),
        body=NamePlayer,
    ),
    MoveRoute(
        "offerSeat",
        "offer_seat",
        "Host: offer the seat of a player who timed out; a newcomer takes it through the invite link",
        lambda player, body: moves.OfferSeat(player.player_id, body.player_id),
        body=NamePlayer,
    ),
    MoveRoute(
        "removePlayer",
        "remove_player",
        "Host: remove a player who timed out; their seat leaves the table when the round ends",
        lambda player, body: moves.RemovePlayer(player.player_id, body.player_id),
        body=NamePlayer,
    ),
)


def play_move(
    route: MoveRoute,
    path: str,
    game_id: str,
    player: PlayerRecord,
    adapters: Services,
    body: BaseModel | None = None,
    if_match: str | None = None,
    key: str | None = None,
) -> Response[GameOut]:
    """Every move route: apply at most once per Idempotency-Key, under If-Match, and show the result.

    `path` is the request's own ("/games/g_…/clue"): a retry's key holds for this game's route only.
    """
    checked = check_game_id(game_id)
    move = route.make(player, body)
    if route.seat_change:
        quotas.claim_seat_change(adapters, player, checked)
    if isinstance(move, moves.Join):
        # The seat carries the player's quiet hours, so the deadlines it owes avoid their nights.
        move = replace(move, quiet=quiet_of(adapters, player))
    played = games.play(
        adapters,
        player,
        checked,
        move,
        expected_version=expected_version(if_match, checked, player.player_id),
        invite_code=route.invite_code(body),
        key=key_of(f"POST {path}", player, key, body),
    )
    return to_response(game_answer(adapters, played, player.player_id))
