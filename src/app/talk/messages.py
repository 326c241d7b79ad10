"""Posting to a game's table and reading it back (`/games/{game_id}/messages`).

Who: a seated player posts; members read, and so does anyone when the game is public (as its view).
When: the game's `table_talk` setting and its phase say (dixit.table_talk); a refusal says when talk
opens again. What: the one text rule (dixit.text.check_message). How often: app.talk.limits.
"""

from __future__ import annotations

import re
import secrets

from app.core import rates
from app.core.errors import Forbidden, InvalidInput
from app.core.records import PlayerRecord
from app.core.telemetry import logger
from app.games.reading import load_game, visible_game
from app.talk import limits
from app.talk.expiry import expiry_of_a_message_in
from app.talk.ports import Talking
from app.talk.records import MessageRecord
from dixit.lean_dataclass import dataclass
from dixit.state import GameState
from dixit.table_talk import TalkWindow, check_talk, talk_window
from dixit.text import check_message

PAGE_DEFAULT = 50
PAGE_MAX = 100
MESSAGE_ID = re.compile(r"^m_[0-9]{13}[0-9a-f]{8}$")


def new_message_id(epoch_ms: int) -> str:
    # The time first, so ids sort as the messages were written; 32 random bits tell apart two in one ms.
    return f"m_{epoch_ms:013d}{secrets.token_hex(4)}"


def round_of(state: GameState) -> int:
    """The round a message is written in: the one in play, else the last one played (0 in the lobby)."""
    if state.round is not None:
        return state.round.number
    return state.last_round.number if state.last_round is not None else 0


def post_message(ports: Talking, author: PlayerRecord, game_id: str, text: str) -> MessageRecord:
    """Write `text` at the game's table: the message as stored."""
    return posted_at_table(ports, author, game_id, text)[0]


def posted_at_table(
    ports: Talking, author: PlayerRecord, game_id: str, text: str
) -> tuple[MessageRecord, GameState]:
    """Write `text` at the game's table: the message as stored, and the game as it was read for it (for
    whoever tells the table, without reading the game again)."""
    record = load_game(ports, game_id)
    state = record.state
    seat = state.player(author.player_id)
    if seat is None:
        raise Forbidden("not_a_member", "only the game's players may talk at its table")
    check_talk(state.settings.table_talk, state.phase)
    cleaned = check_message(text)
    rates.claim(ports, limits.MESSAGES_PER_GAME_MINUTE, limits.game_key(author.player_id, game_id))
    rates.claim(ports, limits.MESSAGES_PER_DAY, limits.player_key(author.player_id))
    now = ports.clock()
    message = MessageRecord(
        game_id=game_id,
        message_id=new_message_id(int(now.timestamp() * 1000)),
        author_id=author.player_id,
        author_name=seat.name,
        text=cleaned,
        round=round_of(state),
        phase=state.phase.value,
        posted_at=now.isoformat(timespec="milliseconds"),
    )
    ports.talk.put_message(message, expires_at=expiry_of_a_message_in(ports, state))
    return message, state


@dataclass(frozen=True, slots=True)
class MessagePage:
    messages: list[MessageRecord]  # newest first
    next_before: str | None  # pass as `before` for older messages; None when there are none
    window: TalkWindow  # whether the table may talk now, and if not, when again
    hidden: frozenset[str] = frozenset()  # ids of the messages of players the viewer muted
    viewer_is_host: bool = False  # the host alone learns which messages were reported


def _mark_read(ports: Talking, player_id: str, game_id: str, newest: str) -> None:
    """A seated player read the newest page: the daily digest counts unread talk from here. One small
    conditional write, landing only when it moves forward; a fault costs a digest's count, never the read."""
    try:
        ports.talk.mark_read(player_id, game_id, newest)
    except Exception:
        logger.warning("could not note how far the talk was read", extra={"game_id": game_id})


def check_cursor(before: str | None) -> str:
    if not before:
        return ""
    if not MESSAGE_ID.fullmatch(before):
        raise InvalidInput("invalid_cursor", "before must be a message id this game's talk returned")
    return before


def list_messages(
    ports: Talking, viewer: PlayerRecord, game_id: str, *, before: str | None, limit: int
) -> MessagePage:
    """The game's messages before the cursor, newest first, as the viewer may read them: those of players
    they muted are marked hidden (their words left out), in place."""
    record = visible_game(ports, viewer, game_id)
    start = check_cursor(before)
    # One more than asked tells whether an older page exists without a second query.
    found = ports.talk.list_messages(game_id, before=start, limit=limit + 1)
    page = found[:limit]
    more = len(found) > limit
    state = record.state
    muted = set(ports.talk.muted_players(viewer.player_id)) if page else set()
    if not start and page and state.player(viewer.player_id) is not None:
        _mark_read(ports, viewer.player_id, game_id, page[0].message_id)
    return MessagePage(
        messages=page,
        next_before=page[-1].message_id if more else None,
        window=talk_window(state.settings.table_talk, state.phase),
        hidden=frozenset(m.message_id for m in page if m.author_id in muted),
        viewer_is_host=state.host_id == viewer.player_id,
    )
