"""Reporting a message, and the host hiding a reported one.

A report is kept beside the message with its reporter and a reason from a fixed list (no free text: a
report never carries words of its own to leak or to erase), the message is marked reported, and each new
report is counted (metric `MessagesReported`, with an alarm in template.yaml). Reports are rate-limited
per player per day. Only the game's host sees which messages are reported, and may hide one: then nobody
reads its words any more (the author included), in place.
"""

from __future__ import annotations

from app.core import rates
from app.core.errors import Conflict, Forbidden, InvalidInput, NotFound
from app.core.records import PlayerRecord
from app.core.telemetry import count
from app.games.reading import load_game
from app.talk import limits
from app.talk.ports import Talking
from app.talk.records import MessageRecord

REASONS = ("spoiler", "abuse", "spam", "other")


def _message_at(ports: Talking, game_id: str, message_id: str) -> MessageRecord:
    message = ports.talk.get_message(game_id, message_id)
    if message is None:
        raise NotFound("message_not_found", f"there is no message {message_id} in this game")
    return message


def report(ports: Talking, reporter: PlayerRecord, game_id: str, message_id: str, reason: str) -> bool:
    """Report the message; whether it is a new report (the same reporter again changes nothing)."""
    state = load_game(ports, game_id).state
    if state.player(reporter.player_id) is None:
        raise Forbidden("not_a_member", "only the game's players report its messages")
    message = _message_at(ports, game_id, message_id)
    if message.author_id == reporter.player_id:
        raise InvalidInput("cannot_report_yourself", "you cannot report your own message")
    rates.claim(ports, limits.REPORTS_PER_DAY, limits.player_key(reporter.player_id))
    new = ports.talk.report_message(
        game_id, message_id, reporter.player_id, reason=reason, at=ports.now_iso()
    )
    if new:
        count("MessagesReported")
    return new


def hide(ports: Talking, host: PlayerRecord, game_id: str, message_id: str) -> None:
    """The host hides a reported message at their table."""
    state = load_game(ports, game_id).state
    if state.host_id != host.player_id:
        raise Forbidden("not_host", "only the game's host hides a reported message")
    message = _message_at(ports, game_id, message_id)
    if not message.reported:
        raise Conflict("message_not_reported", "only a reported message can be hidden")
    ports.talk.hide_message(game_id, message_id)
