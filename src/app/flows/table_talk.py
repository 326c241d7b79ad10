"""A message at a game's table, and who hears of it: the message stored (app.talk), then its
`message.posted` copies in the other players' feeds (app.feed), then their webhooks' deliveries
(app.webhooks), for each player but those who muted its author, then the live channel's
`messages.changed` for the connections watching the game (app.live; a host hiding a message says it too).
A reaction set or taken back is told to those connections alone (`reactions.changed`): no feed, no
webhook. No push and no mail: talk is for the table, not for anyone's phone at night.

The message is stored first, and once it is, the poster gets their 201 whatever happens next: a feed
or queue fault then is logged and counted (`TalkNotTold`), never answered as an error, since a client
retrying a refused post would write the message twice. The message stands for everyone who reads the
table; only that message's feed copies or deliveries are missing.
"""

from __future__ import annotations

from app.core.errors import StoreUnavailable
from app.core.records import PlayerRecord
from app.core.telemetry import count, logger
from app.feed import feed
from app.feed.events import message_events
from app.flows.bundles import TalkPorts
from app.live.signals import Announcement, reactions_announcement, talk_announcement
from app.talk import messages, reactions, reports
from app.talk.records import MessageRecord, ReactionRecord
from app.webhooks.dispatch import enqueue_events
from dixit.state import Phase


def post_and_tell(ports: TalkPorts, author: PlayerRecord, game_id: str, text: str) -> MessageRecord:
    """Post the message; tell the game's other players through their feeds and webhooks."""
    message, state = messages.posted_at_table(ports, author, game_id, text)
    events = message_events(
        state,
        message_id=message.message_id,
        author_id=message.author_id,
        author_name=message.author_name,
        text=message.text or "",
        round_number=message.round,
        occurred_at=message.posted_at,
    )
    try:
        # Whoever muted the author hears nothing of it (one batch read of the table's mutes of them).
        muters = ports.talk.muters_of(message.author_id, [e.recipient_id for e in events])
        events = [e for e in events if e.recipient_id not in muters]
        feed.record_message(ports, events, finished=state.phase is Phase.FINISHED)
        enqueue_events(ports, ports.webhook_queue, events)
    except (StoreUnavailable, RuntimeError):
        logger.warning("message stored, not told", extra={"game_id": game_id}, exc_info=True)
        count("TalkNotTold")
    announce_live(ports, game_id, message.message_id)
    return message


def hide_and_tell(ports: TalkPorts, host: PlayerRecord, game_id: str, message_id: str) -> None:
    """The host hides a reported message; the clients watching the table refetch it."""
    reports.hide(ports, host, game_id, message_id)
    announce_live(ports, game_id, message_id, hidden=True)


def react_and_tell(
    ports: TalkPorts, player: PlayerRecord, game_id: str, target: str, reaction: str
) -> ReactionRecord:
    """Set the player's reaction; the clients watching the table refetch the reactions."""
    record = reactions.react(ports, player, game_id, target, reaction)
    _queue_live(ports, reactions_announcement(game_id, target))
    return record


def unreact_and_tell(ports: TalkPorts, player: PlayerRecord, game_id: str, target: str) -> None:
    """Take the player's reaction back; the clients watching the table refetch the reactions. Nothing
    taken back tells nobody: a DELETE is not rate-limited as a reaction is, so only a change, which
    needs a reaction first, reaches the other players' sockets."""
    if reactions.unreact(ports, player, game_id, target):
        _queue_live(ports, reactions_announcement(game_id, target))


def announce_live(ports: TalkPorts, game_id: str, message_id: str, *, hidden: bool = False) -> None:
    """One message on the live queue: the sender tells the game's watchers its talk changed."""
    _queue_live(ports, talk_announcement(game_id, message_id, hidden=hidden))


def _queue_live(ports: TalkPorts, change: Announcement) -> None:
    """Best effort, like the feed's copies: the message or reaction stands, and a client polling or
    refetching later reads it."""
    if not ports.live_queue.configured():
        return
    try:
        refused = ports.live_queue.send([change.to_json()])
    except (StoreUnavailable, RuntimeError):
        refused = ["unsent"]
    if refused:
        logger.warning("talk not announced live", extra={"game_id": change.game_id, "kind": change.kind})
        count("TalkNotLive")
