"""A player's own game use cases: create a game, make a move in it, change its invite code.

Every write takes the one path of app.games.writing (exactly once, retried within the request's budget);
reading and listing games is app.games.reading. Both are re-exported here, where the handlers, the sweep
and the account's erasure have always found them (`from app.games import play as games`).
"""

from __future__ import annotations

import secrets

from app.core.errors import Busy, Forbidden, StaleVersion, StoreUnavailable, VersionConflict
from app.core.records import GameRecord, PlayerRecord, Visibility
from app.core.telemetry import count, logger
from app.games import due_index, quotas
from app.games import inbox as inbox_entries
from app.games.idempotency import RequestKey
from app.games.ports import Moving, Playing
from app.games.reading import (
    OPEN_GAMES_LIMIT,
    bad_invite_code,
    check_invite,
    finished_games,
    game_stamp,
    inbox,
    list_open_games,
    list_rounds,
    load_game,
    previewed_game,
    visible_game,
)
from app.games.writing import (
    ATTEMPT_RESERVE,
    RECENT_REQUESTS,
    Judge,
    Played,
    Step,
    apply_move,
    new_request_id,
    replay,
    stored_answer,
    view_of,
    written_by,
)
from dixit import engine
from dixit.blocks import SeatBar, seat_bar
from dixit.engine import Applied
from dixit.moves import Join, Move, TakeSeat
from dixit.quiet_hours import SeatQuiet
from dixit.settings import Settings

__all__ = [
    "ATTEMPT_RESERVE",
    "OPEN_GAMES_LIMIT",
    "RECENT_REQUESTS",
    "Judge",
    "Played",
    "Step",
    "apply_move",
    "create_game",
    "finished_games",
    "game_stamp",
    "inbox",
    "list_open_games",
    "list_rounds",
    "load_game",
    "new_game_id",
    "new_request_id",
    "play",
    "previewed_game",
    "rotate_invite",
    "view_of",
    "visible_game",
    "written_by",
]


def new_game_id() -> str:
    return f"g_{secrets.token_hex(8)}"


def create_game(
    services: Playing,
    player: PlayerRecord,
    *,
    rules: str,
    decks: list[str] | None,
    max_players: int | None,
    target_score: int | None,
    visibility: Visibility,
    move_timeout_hours: int | None = None,
    timeout_policy: str | None = None,
    vacation_days: int | None = None,
    table_talk: str | None = None,
    key: RequestKey | None = None,
    host_quiet: SeatQuiet | None = None,
    title: str | None = None,
) -> Played:
    """A new game with `player` as host; with `key`, at most once per key (a repeat gets the first answer).

    `host_quiet`: the host's quiet hours, which their seat keeps (app.notify.my_preferences).
    """
    replayed = replay(services, key)
    if replayed is not None:
        return Played(answer=replayed)
    quotas.check_can_host(services, player, visibility)
    # Here, not at import: creating a game is rare, and the deck module's records are no move's or view's.
    from app.decks.custom import custom_decks_for_game

    settings = Settings.build(
        rules,
        decks,
        max_players,
        target_score,
        custom_decks=custom_decks_for_game(services.decks, player, decks),
        move_timeout_hours=move_timeout_hours,
        timeout_policy=timeout_policy,
        title=title,
        vacation_days=vacation_days,
        table_talk=table_talk,
    )
    state = engine.new_game(
        new_game_id(),
        host_id=player.player_id,
        host_name=player.name,
        settings=settings,
        seed=secrets.randbits(63),
        host_quiet=host_quiet,
    )
    now = services.now_iso()
    request_id = new_request_id()
    record = GameRecord(
        state,
        visibility,
        secrets.token_urlsafe(6),
        created_at=now,
        updated_at=now,
        recent_requests=(request_id,),
    )
    record.due_at = due_index.at_creation(state, visibility, services.now_epoch())
    body, answer = stored_answer(services, key, player.player_id, record)
    try:
        services.games.create_game(
            record, answer=answer, memberships=inbox_entries.seated_entries(record, [state.host_id])
        )
    except (VersionConflict, StoreUnavailable) as failed:
        # Did it land after all (an answer lost in transit, then a retry refused as a duplicate)?
        landed = services.games.load_game(record.game_id)
        if landed is None or request_id not in landed.recent_requests:
            replayed = replay(services, key)  # the same key, sent twice at once: the other one won
            if replayed is not None:
                return Played(answer=replayed)
            if isinstance(failed, StoreUnavailable):
                raise
            raise Busy() from None
    count("GamesCreated")
    _keep(services, player)
    logger.info("game created", extra={"game_id": state.game_id, "rules": settings.rules.value})
    return Played(record, answer=body)


def play(
    services: Playing,
    player: PlayerRecord,
    game_id: str,
    move: Move,
    *,
    expected_version: int | None = None,
    invite_code: str | None = None,
    key: RequestKey | None = None,
) -> Played:
    """Apply `player`'s `move`: the one way a player's move reaches a game.

    A lost race re-reads and re-applies the same move; if it is no longer legal the rule error says
    why. With `expected_version`, a changed game is StaleVersion instead: the caller asked for exactly
    that version. A move that seats the player in a private game needs the game's `invite_code`. With
    `key`, the move applies at most once and its answer is stored with it (and replayed).
    """

    seating = isinstance(move, Join | TakeSeat)
    blocks: dict[frozenset[str], set[tuple[str, str]]] = {}  # by the table asked about: a retry reads none

    def judge(record: GameRecord) -> Step:
        # Who may act comes before what the game is doing: a stranger to a private game learns nothing
        # of its phase or version, only what a view would have told them.
        _check_member(record, player, move, invite_code)
        if seating and record.state.player(player.player_id) is None:
            _check_blocks(services, record, player, blocks)
        if expected_version is not None and record.version != expected_version:
            raise StaleVersion(record.version)
        now = services.now_epoch()
        applied = engine.apply(record.state, move, now=now)
        barred = None
        if record.visibility is Visibility.PRIVATE and player.player_id in applied.left:
            barred = tuple(sorted({*record.invite_barred, player.player_id}))
        return Step(applied, due_index.after_move(record, applied.state, now), invite_barred=barred)

    if isinstance(move, Join | TakeSeat):
        quotas.check_can_sit(services, player)
    played = apply_move(services, game_id, judge, key=key, viewer_id=player.player_id)
    if player.expires_at is not None:
        _keep(services, player)  # any move: a seated player whose first keep failed is kept now
    return played


def _keep(services: Playing, player: PlayerRecord) -> None:
    """A player who sits down at a table is kept for good: only those who never do expire (TTL).

    After the move has landed, so a failure here must not turn its answer into an error: the expiry
    stays, and the player's next move takes it off (30 days of them to do so).
    """
    if player.expires_at is None:
        return
    try:
        services.players.keep_player(player.player_id)
    except Exception:
        logger.warning("could not take the expiry off a seated player", extra={"player_id": player.player_id})


def _check_member(record: GameRecord, player: PlayerRecord, move: Move, invite_code: str | None) -> None:
    """Refuse a non-member of a private game before anything else is judged: only a Join holding the
    current invite code gets past, and never one by a player who left since that code was issued."""
    if record.visibility is not Visibility.PRIVATE or record.state.player(player.player_id) is not None:
        return
    if not isinstance(move, Join):
        raise Forbidden("not_a_member", "this game is private")
    check_invite(record, invite_code)
    if player.player_id in record.invite_barred:
        raise Forbidden("invite_revoked", "you left this game: ask the host for a fresh invite code")


def _check_blocks(
    services: Playing,
    record: GameRecord,
    player: PlayerRecord,
    known: dict[frozenset[str], set[tuple[str, str]]],
) -> None:
    """Refuse a seat a block keeps the player from (dixit.blocks): one batch read, at a join alone."""
    private = record.visibility is Visibility.PRIVATE
    asked = frozenset([record.state.host_id] if private else record.state.player_ids)
    if asked not in known:
        known[asked] = services.talk.blocks_between(player.player_id, sorted(asked))
    bar = seat_bar(
        player.player_id,
        host_id=record.state.host_id,
        seated=record.state.player_ids,
        blocks=known[asked],
        private=private,
    )
    if bar is SeatBar.QUIET:
        # Word for word a stale code's answer: the newcomer never learns that the host blocked them.
        raise bad_invite_code()
    if bar is SeatBar.BLOCKED:
        raise Forbidden(
            "player_blocked",
            "a block between you and a player at this table keeps you from joining it (see your blocks)",
        )


def rotate_invite(services: Moving, player: PlayerRecord, game_id: str) -> Played:
    """A fresh invite code for the host's game: the old one (a leaked link) seats nobody any more, and
    players who left may come back with the new one."""

    def judge(record: GameRecord) -> Step:
        if record.state.player(player.player_id) is None:
            if record.visibility is Visibility.PRIVATE:
                raise Forbidden("not_a_member", "this game is private")
            raise Forbidden("not_a_player", "you are not in this game")
        if record.state.host_id != player.player_id:
            raise Forbidden("not_host", "only the host may change the invite code")
        state = record.state.copy()
        state.version += 1  # the members' view shows the code, so their ETags must change with it
        return Step(Applied(state), record.due_at, invite_barred=(), invite_code=secrets.token_urlsafe(6))

    return apply_move(services, game_id, judge, viewer_id=player.player_id)
