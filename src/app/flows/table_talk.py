"""A message at a game's table, and who hears of it: the message stored (app.talk), then its
`message.posted` copies in the other players' feeds (app.feed), then their webhooks' deliveries
(app.webhooks), for each player but those who muted its author. No push and no mail: talk is for the
table, not for anyone's phone at night.

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
from app.talk import messages
from app.talk.records import MessageRecord
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
    return message
