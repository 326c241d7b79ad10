"""What the daily digest says of table talk: per game, how many messages the player has not read.

"Read" is how far they last read the newest page of a game's talk (app.talk.messages notes it); their own
messages and those of players they muted (or blocked) are not news to them. Counted up to a bound: a
digest says "99+" rather than read a busy table's whole talk.
"""

from __future__ import annotations

from collections.abc import Iterable

from app.notify.ports import UnreadTalk

UNREAD_CAP = 99


def unread_counts(talk: UnreadTalk, player_id: str, game_ids: Iterable[str]) -> dict[str, int]:
    """game id -> unread messages (only games with some); one query of the player's markers, one of their
    mutes, and one bounded query per game."""
    games = list(dict.fromkeys(game_ids))
    if not games:
        return {}
    marks = talk.read_marks(player_id)
    muted = set(talk.muted_players(player_id))
    counts = {}
    for game_id in games:
        authors = talk.authors_after(game_id, marks.get(game_id, ""), limit=UNREAD_CAP + 1)
        news = sum(1 for author in authors if author != player_id and author not in muted)
        if news:
            counts[game_id] = news
    return counts


def unread_text(count: int) -> str:
    """'1 unread message', '12 unread messages', '99+ unread messages'."""
    if count > UNREAD_CAP:
        return f"{UNREAD_CAP}+ unread messages"
    return f"{count} unread message{'s' if count != 1 else ''}"
