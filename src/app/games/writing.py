"""The one path every write of a game takes, a player's or the sweep's: load, apply the rules, save
conditionally, retry within the request's time budget.

Exactly once: every write carries a fresh request id in the game item (`recent_requests`), so a write
whose answer was lost (a timeout after DynamoDB committed it, then botocore's retry failing the
condition) is recognised on the next read as having landed, and reported as applied. A keyed request
(`Idempotency-Key`) writes its answer in the same transaction as the move (app.games.idempotency).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from app.core.deadline import RetryBudget
from app.core.errors import AppError, Busy, StoreUnavailable, VersionConflict
from app.core.records import GameRecord, StoredAnswer
from app.core.telemetry import count, logger
from app.decks.card_images import CardImages
from app.games import inbox as inbox_entries
from app.games.card_descriptions import card_descriptions
from app.games.idempotency import RequestKey
from app.games.ports import Answering, GameWrite, Moving, Viewing
from app.games.presenters import game_body
from app.games.reading import load_game
from dixit.engine import Applied
from dixit.lean_dataclass import dataclass

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

    def view(self, services: Viewing, viewer_id: str | None) -> dict[str, Any]:
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


def new_request_id() -> str:
    return secrets.token_urlsafe(6)  # 48 bits: unique among a game's recent writes


def _remember(record: GameRecord, request_id: str) -> tuple[str, ...]:
    return (*record.recent_requests, request_id)[-RECENT_REQUESTS:]


def _backoff(services: RetryBudget, attempt: int) -> bool:
    """Wait before attempt `attempt` (1 = the first retry); False when the budget cannot afford it."""
    wait = random.uniform(0, min(BACKOFF_CAP, BACKOFF_BASE * 2**attempt))
    if services.deadline.remaining() < wait + ATTEMPT_RESERVE:
        return False
    services.pause(wait)
    return True


def stored_answer(
    services: Answering, key: RequestKey | None, viewer_id: str | None, record: GameRecord
) -> tuple[dict[str, Any] | None, StoredAnswer | None]:
    if key is None:
        return None, None
    body = view_of(record, viewer_id, services.images, card_descriptions(services, record))
    ttl = services.settings.idempotency_ttl_seconds
    return body, key.answer(body, now=services.now_epoch(), ttl_seconds=ttl)


def replay(services: Answering, key: RequestKey | None) -> dict[str, Any] | None:
    if key is None:
        return None
    stored = services.games.get_answer(key.key_id, now=services.now_epoch())
    return None if stored is None else key.replay(stored, services.images)


def apply_move(
    services: Moving,
    game_id: str,
    judge: Judge,
    *,
    key: RequestKey | None = None,
    viewer_id: str | None = None,
    loaded: GameRecord | None = None,
    request_id: str | None = None,
) -> Played:
    """Load, judge, save conditionally, and retry within the request's time budget: every move's path,
    a player's or the sweep's.

    `judge` decides on each fresh read what to write (None: nothing any more). `loaded` spares the
    first read when the caller has just made it. A keyed write stores `viewer_id`'s answer with it.
    `request_id`, the id every attempt's write carries (a fresh one by default), is the caller's to
    give when it must recognise the write itself later (the sweep: `written_by`).
    """
    request_id = request_id or new_request_id()
    failure: AppError = Busy()
    wrote = False
    for attempt in range(services.settings.move_attempts):
        if attempt and not _backoff(services, attempt):
            break
        replayed = replay(services, key)
        if replayed is not None:
            return Played(answer=replayed)
        record = loaded if loaded is not None and not attempt else load_game(services, game_id)
        if written_by(record, request_id):
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
        body, answer = stored_answer(services, key, viewer_id, updated)
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


def written_by(record: GameRecord, request_id: str) -> bool:
    """Whether the game, as read, holds the write that carried `request_id` (answered or not)."""
    return request_id in record.recent_requests


def _landed(services: Answering, game_id: str, request_id: str, key: RequestKey | None) -> Played | None:
    try:
        replayed = replay(services, key)
        if replayed is not None:
            return Played(answer=replayed)
        record = load_game(services, game_id)
    except StoreUnavailable:
        return None
    return Played(record) if written_by(record, request_id) else None
