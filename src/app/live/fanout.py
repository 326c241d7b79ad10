"""The sender: an announcement of a change, posted to each connection that should hear it.

Each post is one attempt with a short timeout (the socket adapter), one after the other; a connection
API Gateway says is gone (410) is forgotten, and a post that failed otherwise is counted, the others still
sent, and the whole announcement reported failed so the queue retries it (a duplicate signal costs a
client a 304, app.live.signals).

Who hears a game is decided when it is sent: a watch of a private game reaches only its members of that
moment (one read of the game's stamp), so a player who left it, or was removed, hears nothing more of it
through a watch opened while they sat there (a leaver hears their own leave as `inbox.changed`).
"""

from __future__ import annotations

from collections import Counter

from app.core.records import Visibility
from app.live.ports import Posted, Telling
from app.live.signals import (
    REACTIONS,
    TALK,
    Announcement,
    encoded,
    game_changed,
    inbox_changed,
    messages_changed,
    reactions_changed,
)
from dixit.lean_dataclass import dataclass


@dataclass(frozen=True, slots=True)
class Told:
    outcomes: Counter[Posted]

    @property
    def failed(self) -> bool:
        return self.outcomes[Posted.FAILED] > 0


def tell(ports: Telling, change: Announcement, *, now: int) -> Told:
    store = ports.live
    watchers = _readers(ports, change.game_id, now=now)
    if change.kind in (TALK, REACTIONS):
        # Only those watching the game hear of its talk: nobody's games list changed.
        said = messages_changed if change.kind == TALK else reactions_changed
        talk_message = encoded(said(change.game_id, change.message_id))
        return _post(ports, [(connection, talk_message) for connection in watchers])
    game_message = encoded(game_changed(change.game_id, change.version))
    posts = [(connection, game_message) for connection in watchers]
    # A connection told the game changed knows its inbox entry did: one message each, not two (API
    # Gateway bills each one).
    inbox_message = encoded(inbox_changed(change.game_id, change.version))
    told_already = set(watchers)
    for player_id in change.members:
        posts += [
            (connection, inbox_message)
            for connection in store.connections_of(player_id, now=now)
            if connection not in told_already
        ]
    return _post(ports, posts)


def _readers(ports: Telling, game_id: str, *, now: int) -> list[str]:
    """The connections watching the game whose players may read it now: anyone's for a public game, its
    members' for a private one."""
    watching = ports.live.watchers_with_players(game_id, now=now)
    if not watching:
        return []
    stamp = ports.games.game_stamp(game_id)
    if stamp is None or stamp.visibility is not Visibility.PRIVATE:
        return sorted(watching)
    return sorted(c for c, player_id in watching.items() if player_id in stamp.member_ids)


def _post(ports: Telling, posts: list[tuple[str, bytes]]) -> Told:
    store, socket = ports.live, ports.live_socket
    outcomes: Counter[Posted] = Counter()
    gone: set[str] = set()
    for connection, message in posts:
        if connection in gone:
            continue
        posted = socket.post(connection, message)
        outcomes[posted] += 1
        if posted is Posted.GONE:
            gone.add(connection)
            store.forget(connection)
    return Told(outcomes)
