"""Game use cases: load, apply the rules, save conditionally, retry within the request's time budget.

Exactly once: every write carries a fresh request id in the game item (`recent_requests`), so a write
whose answer was lost (a timeout after DynamoDB committed it, then botocore's retry failing the
condition) is recognised on the next read as having landed, and reported as applied. A keyed request
(`Idempotency-Key`) writes its answer in the same transaction as the move (app.games.idempotency).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from app.core.errors import (
    AppError,
    Busy,
    Forbidden,
    NotFound,
    StaleVersion,
    StoreUnavailable,
    VersionConflict,
)
from app.core.records import GameRecord, GameStamp, InboxPage, PlayerRecord, StoredAnswer, Visibility
from app.core.services import Services
from app.core.telemetry import count, logger
from app.decks.card_images import CardImages
from app.decks.custom import custom_decks_for_game
from app.games import due_index, quotas
from app.games import inbox as inbox_entries
from app.games.card_descriptions import card_descriptions
from app.games.idempotency import RequestKey
from app.games.ports import GameWrite
from app.games.presenters import game_body
from dixit import engine
from dixit.engine import Applied
from dixit.moves import Join, Move
from dixit.quiet_hours import SeatQuiet
from dixit.settings import Settings
from dixit.state import RoundResult

OPEN_GAMES_LIMIT = 50
# How many request ids a game item remembers. A request whose answer was lost looks for its id at once,
# so it is found unless this many other moves landed in that instant (more than a 12-seat game makes).
RECENT_REQUESTS = 16
# Full-jitter exponential backoff between attempts (seconds): a wait drawn from [0, min(cap, base * 2^n)].
BACKOFF_BASE = 0.01
BACKOFF_CAP = 0.4
# An attempt is only started with this much of the budget left: enough for a read and a write.
ATTEMPT_RESERVE = 0.5


@dataclass(frozen=True, slots=True)
class Step:
    """What one attempt writes, judged on the game as just read."""

    applied: Applied
    due_at: int | None
    # The sweep stamps its scheduled time; a player's move, the clock's.
    updated_at: str | None = None
    # Who the current invite code no longer seats (None: unchanged); a fresh code, with `invite_code`.
    invite_barred: tuple[str, ...] | None = None
    invite_code: str | None = None


Judge = Callable[[GameRecord], Step | None]


@dataclass(frozen=True, slots=True)
class Played:
    """What the move path did: the game as written (or as found), or the answer a keyed request stored.

    `applied` is None when nothing was written by this call: a replayed answer, an earlier attempt's
    write that had landed, or a judge that found nothing left to do.
    """

    record: GameRecord | None = None
    answer: dict[str, Any] | None = None
    applied: Applied | None = None
    previous: GameRecord | None = None

    def view(self, services: Services, viewer_id: str | None) -> dict[str, Any]:
        """The answer's body: the stored one, else the game as `viewer_id` sees it."""
        if self.answer is not None:
            return self.answer
        assert self.record is not None  # a Played carries one or the other
        return view_of(self.record, viewer_id, services.images, card_descriptions(services, self.record))


def view_of(
    record: GameRecord,
    viewer_id: str | None,
    images: CardImages,
    described: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The game as `viewer_id` sees it, as the JSON body of an answer (what a keyed request stores).

    `described`: its custom cards' descriptions (app.games.card_descriptions), else neutral alt texts.
    """
    return game_body(record, viewer_id, images, described)


def new_game_id() -> str:
    return f"g_{secrets.token_hex(8)}"


def new_request_id() -> str:
    return secrets.token_urlsafe(6)  # 48 bits: unique among a game's recent writes


def _remember(record: GameRecord, request_id: str) -> tuple[str, ...]:
    return (*record.recent_requests, request_id)[-RECENT_REQUESTS:]


def _backoff(services: Services, attempt: int) -> bool:
    """Wait before attempt `attempt` (1 = the first retry); False when the budget cannot afford it."""
    wait = random.uniform(0, min(BACKOFF_CAP, BACKOFF_BASE * 2**attempt))
    if services.deadline.remaining() < wait + ATTEMPT_RESERVE:
        return False
    services.pause(wait)
    return True


def _stored_answer(
    services: Services, key: RequestKey | None, viewer_id: str | None, record: GameRecord
) -> tuple[dict[str, Any] | None, StoredAnswer | None]:
    if key is None:
        return None, None
    body = view_of(record, viewer_id, services.images, card_descriptions(services, record))
    ttl = services.settings.idempotency_ttl_seconds
    return body, key.answer(body, now=services.now_epoch(), ttl_seconds=ttl)


def _replay(services: Services, key: RequestKey | None) -> dict[str, Any] | None:
    if key is None:
        return None
    stored = services.games.get_answer(key.key_id, now=services.now_epoch())
    return None if stored is None else key.replay(stored, services.images)


def create_game(
    services: Services,
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
    key: RequestKey | None = None,
    host_quiet: SeatQuiet | None = None,
    title: str | None = None,
) -> Played:
    """A new game with `player` as host; with `key`, at most once per key (a repeat gets the first answer).

    `host_quiet`: the host's quiet hours, which their seat keeps (app.notify.my_preferences).
    """
    replayed = _replay(services, key)
    if replayed is not None:
        return Played(answer=replayed)
    quotas.check_can_host(services, player, visibility)
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
    body, answer = _stored_answer(services, key, player.player_id, record)
    try:
        services.games.create_game(
            record, answer=answer, memberships=inbox_entries.seated_entries(record, [state.host_id])
        )
    except (VersionConflict, StoreUnavailable) as failed:
        # Did it land after all (an answer lost in transit, then a retry refused as a duplicate)?
        landed = services.games.load_game(record.game_id)
        if landed is None or request_id not in landed.recent_requests:
            replayed = _replay(services, key)  # the same key, sent twice at once: the other one won
            if replayed is not None:
                return Played(answer=replayed)
            if isinstance(failed, StoreUnavailable):
                raise
            raise Busy() from None
    count("GamesCreated")
    _keep(services, player)
    logger.info("game created", extra={"game_id": state.game_id, "rules": settings.rules.value})
    return Played(record, answer=body)


def load_game(services: Services, game_id: str) -> GameRecord:
    record = services.games.load_game(game_id)
    if record is None:
        raise NotFound("game_not_found", f"there is no game {game_id}")
    return record


def visible_game(services: Services, viewer: PlayerRecord, game_id: str) -> GameRecord:
    """The game if the viewer may look at it: members always, anyone when it is public."""
    record = load_game(services, game_id)
    if record.state.player(viewer.player_id) is None and record.visibility is Visibility.PRIVATE:
        raise Forbidden("not_a_member", "this game is private")
    return record


def previewed_game(
    services: Services, viewer: PlayerRecord, game_id: str, invite_code: str | None
) -> GameRecord:
    """The game for its join page: members and anyone when it is public; with the invite code when private."""
    record = load_game(services, game_id)
    if record.visibility is Visibility.PRIVATE and record.state.player(viewer.player_id) is None:
        _check_invite(record, invite_code)
    return record


def game_stamp(services: Services, viewer: PlayerRecord, game_id: str) -> GameStamp | None:
    """The game's version if the viewer may look at it, read without its state; None otherwise.

    None sends the caller down the full read, which says why (not found, private).
    """
    stamp = services.games.game_stamp(game_id)
    if stamp is None:
        return None
    if viewer.player_id not in stamp.member_ids and stamp.visibility is Visibility.PRIVATE:
        return None
    return stamp


def list_rounds(
    services: Services, viewer: PlayerRecord, game_id: str
) -> tuple[GameRecord, list[RoundResult]]:
    """The finished rounds, with the game they belong to (it names the players they mention)."""
    record = visible_game(services, viewer, game_id)
    return record, services.games.list_rounds(game_id)


def list_open_games(services: Services, limit: int = OPEN_GAMES_LIMIT) -> list[GameRecord]:
    """Public lobbies with a free seat, a few per host, newest host first: the games a stranger can
    actually join, which no one host can push off the page (app.games.quotas.fair_lobbies)."""
    joinable = (
        record
        for record in services.games.list_open_games(quotas.OPEN_GAMES_SCANNED)
        if len(record.state.players) < record.state.settings.max_players
    )
    return quotas.fair_lobbies(joinable, limit)


def play(
    services: Services,
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

    def judge(record: GameRecord) -> Step:
        # Who may act comes before what the game is doing: a stranger to a private game learns nothing
        # of its phase or version, only what a view would have told them.
        _check_member(record, player, move, invite_code)
        if expected_version is not None and record.version != expected_version:
            raise StaleVersion(record.version)
        now = services.now_epoch()
        applied = engine.apply(record.state, move, now=now)
        barred = None
        if record.visibility is Visibility.PRIVATE and player.player_id in applied.left:
            barred = tuple(sorted({*record.invite_barred, player.player_id}))
        return Step(applied, due_index.after_move(record, applied.state, now), invite_barred=barred)

    if isinstance(move, Join):
        quotas.check_can_sit(services, player)
    played = apply_move(services, game_id, judge, key=key, viewer_id=player.player_id)
    if player.expires_at is not None:
        _keep(services, player)  # any move: a seated player whose first keep failed is kept now
    return played


def _keep(services: Services, player: PlayerRecord) -> None:
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


def apply_move(
    services: Services,
    game_id: str,
    judge: Judge,
    *,
    key: RequestKey | None = None,
    viewer_id: str | None = None,
    loaded: GameRecord | None = None,
) -> Played:
    """Load, judge, save conditionally, and retry within the request's time budget: every move's path,
    a player's or the sweep's.

    `judge` decides on each fresh read what to write (None: nothing any more). `loaded` spares the
    first read when the caller has just made it. A keyed write stores `viewer_id`'s answer with it.
    """
    request_id = new_request_id()
    failure: AppError = Busy()
    wrote = False
    for attempt in range(services.settings.move_attempts):
        if attempt and not _backoff(services, attempt):
            break
        replayed = _replay(services, key)
        if replayed is not None:
            return Played(answer=replayed)
        record = loaded if loaded is not None and not attempt else load_game(services, game_id)
        if request_id in record.recent_requests:
            logger.info("a write whose answer was lost had landed", extra={"game_id": game_id})
            return Played(record)
        step = judge(record)
        if step is None:
            return Played(record, previous=record)
        # Built field by field: dataclasses.replace costs as much as the rest of this step.
        updated = GameRecord(
            state=step.applied.state,
            visibility=record.visibility,
            invite_code=record.invite_code if step.invite_code is None else step.invite_code,
            created_at=record.created_at,
            updated_at=step.updated_at or services.now_iso(),
            due_at=step.due_at,
            recent_requests=_remember(record, request_id),
            invite_barred=record.invite_barred if step.invite_barred is None else step.invite_barred,
            rematch_of=record.rematch_of,
        )
        body, answer = _stored_answer(services, key, viewer_id, updated)
        wrote = True
        try:
            services.games.save_game(
                GameWrite(
                    updated,
                    expected_version=record.version,
                    expected_due_at=record.due_at,
                    joined=step.applied.joined,
                    left=step.applied.left,
                    finished_round=step.applied.finished_round,
                    answer=answer,
                    memberships=inbox_entries.seated_entries(updated, step.applied.joined),
                )
            )
        except VersionConflict as conflict:
            count("ConflictsRetried")
            logger.info(
                "lost a race, retrying",
                extra={"game_id": game_id, "attempt": attempt, "now_at": conflict.current_version},
            )
            failure = Busy()
            continue
        except StoreUnavailable as unavailable:
            # The write may have landed: the next read tells (our id in the game, or our stored answer).
            count("StoreFaultsRetried")
            logger.warning("store fault on write, checking", extra={"game_id": game_id, "attempt": attempt})
            failure = unavailable
            continue
        count("MovesApplied")
        if step.applied.game_finished:
            count("GamesFinished")
        return Played(updated, answer=body, applied=step.applied, previous=record)
    if wrote:
        # Out of attempts or budget, but a write refused or failed in transit may have landed (botocore
        # retries a lost answer, and the retry fails its condition): one last look, so that a move
        # that is in the game is never reported as refused.
        landed = _landed(services, game_id, request_id, key)
        if landed is not None:
            return landed
    raise failure


def _landed(services: Services, game_id: str, request_id: str, key: RequestKey | None) -> Played | None:
    try:
        replayed = _replay(services, key)
        if replayed is not None:
            return Played(answer=replayed)
        record = load_game(services, game_id)
    except StoreUnavailable:
        return None
    return Played(record) if request_id in record.recent_requests else None


def _check_member(record: GameRecord, player: PlayerRecord, move: Move, invite_code: str | None) -> None:
    """Refuse a non-member of a private game before anything else is judged: only a Join holding the
    current invite code gets past, and never one by a player who left since that code was issued."""
    if record.visibility is not Visibility.PRIVATE or record.state.player(player.player_id) is not None:
        return
    if not isinstance(move, Join):
        raise Forbidden("not_a_member", "this game is private")
    _check_invite(record, invite_code)
    if player.player_id in record.invite_barred:
        raise Forbidden("invite_revoked", "you left this game: ask the host for a fresh invite code")


def rotate_invite(services: Services, player: PlayerRecord, game_id: str) -> Played:
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


def _check_invite(record: GameRecord, invite_code: str | None) -> None:
    if not invite_code:
        raise Forbidden("invite_required", "this game is private: an invite_code is needed")
    # Bytes: compare_digest refuses non-ASCII str, and an invite code is whatever the client sent.
    if not secrets.compare_digest(invite_code.encode(), record.invite_code.encode()):
        raise Forbidden("bad_invite_code", "that invite code does not open this game")


def inbox(services: Services, player: PlayerRecord) -> InboxPage:
    """The player's unfinished games, most urgent first: one query on their memberships, bounded by
    how many games they are in now, never by how many they ever played."""
    return InboxPage(inbox_entries.most_urgent_first(services.inbox.active_memberships(player.player_id)))


def finished_games(services: Services, player: PlayerRecord, cursor: str | None = None) -> InboxPage:
    """One page of the player's finished games, newest first."""
    page, last = services.inbox.finished_memberships(
        player.player_id, inbox_entries.FINISHED_PAGE, inbox_entries.decode_cursor(cursor)
    )
    return InboxPage(page, inbox_entries.encode_cursor(last))
