"""Reading games: one by id (and whether the viewer may see it), its version, its rounds, the open lobbies,
and a player's own games (their inbox and finished games)."""

from __future__ import annotations

import secrets

from app.core.errors import Forbidden, NotFound
from app.core.records import GameRecord, GameStamp, InboxPage, PlayerRecord, Visibility
from app.games import inbox as inbox_entries
from app.games import quotas
from app.games.ports import Games, Inbox
from dixit.state import RoundResult

OPEN_GAMES_LIMIT = 50


def load_game(services: Games, game_id: str) -> GameRecord:
    record = services.games.load_game(game_id)
    if record is None:
        raise NotFound("game_not_found", f"there is no game {game_id}")
    return record


def visible_game(services: Games, viewer: PlayerRecord, game_id: str) -> GameRecord:
    """The game if the viewer may look at it: members always, anyone when it is public."""
    record = load_game(services, game_id)
    if record.state.player(viewer.player_id) is None and record.visibility is Visibility.PRIVATE:
        raise Forbidden("not_a_member", "this game is private")
    return record


def previewed_game(
    services: Games, viewer: PlayerRecord, game_id: str, invite_code: str | None
) -> GameRecord:
    """The game for its join page: members and anyone when it is public; with the invite code when private.

    A rematch lobby's page is open to the players of the game it rematches, as its one tap is: that is how
    they learn who opened it.
    """
    record = load_game(services, game_id)
    if (
        record.visibility is Visibility.PRIVATE
        and record.state.player(viewer.player_id) is None
        and not _played_the_rematched_game(services, record, viewer.player_id)
    ):
        check_invite(record, invite_code)
    return record


def _played_the_rematched_game(services: Games, record: GameRecord, player_id: str) -> bool:
    if record.rematch_of is None:
        return False
    finished = services.games.load_game(record.rematch_of)
    return finished is not None and finished.state.player(player_id) is not None


def game_stamp(services: Games, viewer: PlayerRecord, game_id: str) -> GameStamp | None:
    """The game's version if the viewer may look at it, read without its state; None otherwise.

    None sends the caller down the full read, which says why (not found, private).
    """
    stamp = services.games.game_stamp(game_id)
    if stamp is None:
        return None
    if viewer.player_id not in stamp.member_ids and stamp.visibility is Visibility.PRIVATE:
        return None
    return stamp


def list_rounds(services: Games, viewer: PlayerRecord, game_id: str) -> tuple[GameRecord, list[RoundResult]]:
    """The finished rounds, with the game they belong to (it names the players they mention)."""
    record = visible_game(services, viewer, game_id)
    return record, services.games.list_rounds(game_id)


def list_open_games(services: Games, limit: int = OPEN_GAMES_LIMIT) -> list[GameRecord]:
    """Public lobbies with a free seat, a few per host, newest host first: the games a stranger can
    actually join, which no one host can push off the page (app.games.quotas.fair_lobbies)."""
    joinable = (
        record
        for record in services.games.list_open_games(quotas.OPEN_GAMES_SCANNED)
        if len(record.state.players) < record.state.settings.max_players
    )
    return quotas.fair_lobbies(joinable, limit)


def check_invite(record: GameRecord, invite_code: str | None) -> None:
    if not invite_code:
        raise Forbidden("invite_required", "this game is private: an invite_code is needed")
    # Bytes: compare_digest refuses non-ASCII str, and an invite code is whatever the client sent.
    if not secrets.compare_digest(invite_code.encode(), record.invite_code.encode()):
        raise bad_invite_code()


def bad_invite_code() -> Forbidden:
    return Forbidden("bad_invite_code", "that invite code does not open this game")


def inbox(services: Inbox, player: PlayerRecord) -> InboxPage:
    """The player's unfinished games, most urgent first: one query on their memberships, bounded by
    how many games they are in now, never by how many they ever played."""
    return InboxPage(inbox_entries.most_urgent_first(services.inbox.active_memberships(player.player_id)))


def finished_games(services: Inbox, player: PlayerRecord, cursor: str | None = None) -> InboxPage:
    """One page of the player's finished games, newest first."""
    page, last = services.inbox.finished_memberships(
        player.player_id, inbox_entries.FINISHED_PAGE, inbox_entries.decode_cursor(cursor)
    )
    return InboxPage(page, inbox_entries.encode_cursor(last))
