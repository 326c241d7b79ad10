"""Game use cases: load, apply the rules, save conditionally, retry a bounded number of times."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace

from app import due_index
from app.custom_decks import custom_decks_for_game
from app.errors import Conflict, Forbidden, NotFound, StaleVersion, VersionConflict
from app.records import GameRecord, PlayerRecord, Visibility
from app.services import Services
from app.telemetry import count, logger
from dixit import engine
from dixit.moves import Move
from dixit.settings import Settings
from dixit.state import Phase, RoundResult
from dixit.views import waiting_for

OPEN_GAMES_LIMIT = 50


def new_game_id() -> str:
    return f"g_{secrets.token_hex(8)}"


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
) -> GameRecord:
    settings = Settings.build(
        rules,
        decks,
        max_players,
        target_score,
        custom_decks=custom_decks_for_game(services.deck_store, player, decks),
        move_timeout_hours=move_timeout_hours,
        timeout_policy=timeout_policy,
    )
    state = engine.new_game(
        new_game_id(),
        host_id=player.player_id,
        host_name=player.name,
        settings=settings,
        seed=secrets.randbits(63),
    )
    now = services.now_iso()
    record = GameRecord(state, visibility, secrets.token_urlsafe(6), created_at=now, updated_at=now)
    record.due_at = due_index.at_creation(state, visibility, services.now_epoch())
    services.store.create_game(record)
    count("GamesCreated")
    logger.info("game created", extra={"game_id": state.game_id, "rules": settings.rules.value})
    return record


def load_game(services: Services, game_id: str) -> GameRecord:
    record = services.store.load_game(game_id)
    if record is None:
        raise NotFound("game_not_found", f"there is no game {game_id}")
    return record


def visible_game(services: Services, viewer: PlayerRecord, game_id: str) -> GameRecord:
    """The game if the viewer may look at it: members always, anyone when it is public."""
    record = load_game(services, game_id)
    if record.state.player(viewer.player_id) is None and record.visibility is Visibility.PRIVATE:
        raise Forbidden("not_a_member", "this game is private")
    return record


def list_rounds(services: Services, viewer: PlayerRecord, game_id: str) -> list[RoundResult]:
    visible_game(services, viewer, game_id)
    return services.store.list_rounds(game_id)


def list_open_games(services: Services, limit: int = OPEN_GAMES_LIMIT) -> list[GameRecord]:
    """Public lobbies with a free seat, newest first: the games a stranger can actually join."""
    return [
        record
        for record in services.store.list_open_games(limit)
        if len(record.state.players) < record.state.settings.max_players
    ]


def play(
    services: Services,
    player: PlayerRecord,
    game_id: str,
    move: Move,
    *,
    expected_version: int | None = None,
    invite_code: str | None = None,
) -> GameRecord:
    """Apply `move` for `player` with optimistic concurrency: the one way any move reaches a game.

    A lost race re-reads and re-applies the same move; if it is no longer legal the rule error says
    why. With `expected_version`, a changed game is StaleVersion instead: the caller asked for exactly
    that version. A move that seats the player in a private game needs the game's `invite_code`.
    """
    attempts = services.settings.move_attempts
    for attempt in range(1, attempts + 1):
        record = load_game(services, game_id)
        if expected_version is not None and record.version != expected_version:
            raise StaleVersion(record.version)
        now = services.now_epoch()
        applied = engine.apply(record.state, move, now=now)
        if player.player_id in applied.joined:
            _check_invite(record, invite_code)
        updated = replace(record, state=applied.state, updated_at=services.now_iso())
        updated.due_at = due_index.after_move(record, applied.state, now)
        try:
            services.store.save_game(
                updated,
                expected_version=record.version,
                expected_due_at=record.due_at,
                joined=applied.joined,
                left=applied.left,
                finished_round=applied.finished_round,
            )
        except VersionConflict as conflict:
            count("ConflictsRetried")
            logger.info(
                "lost a race, retrying",
                extra={"game_id": game_id, "attempt": attempt, "now_at": conflict.current_version},
            )
            continue
        count("MovesApplied")
        if applied.game_finished:
            count("GamesFinished")
        return updated
    raise Conflict("busy_game", "the game kept changing while your move was applied; try again")


def _check_invite(record: GameRecord, invite_code: str | None) -> None:
    if record.visibility is not Visibility.PRIVATE:
        return
    if not invite_code:
        raise Forbidden("invite_required", "this game is private: an invite_code is needed")
    # Bytes: compare_digest refuses non-ASCII str, and an invite code is whatever the client sent.
    if not secrets.compare_digest(invite_code.encode(), record.invite_code.encode()):
        raise Forbidden("bad_invite_code", "that invite code does not open this game")


@dataclass(frozen=True, slots=True)
class InboxEntry:
    record: GameRecord
    your_turn: bool


_PHASE_ORDER = {
    Phase.STORYTELLING: 0,
    Phase.SUBMITTING: 0,
    Phase.VOTING: 0,
    Phase.LOBBY: 1,
    Phase.FINISHED: 2,
}


def inbox(services: Services, player: PlayerRecord) -> list[InboxEntry]:
    """The player's games, most urgent first: their turn, oldest wait first; then lobbies; then finished."""
    entries = [
        InboxEntry(record, _is_their_turn(record, player.player_id))
        for record in services.store.games_of(player.player_id)
    ]
    return sorted(
        entries,
        key=lambda e: (not e.your_turn, _PHASE_ORDER[e.record.state.phase], e.record.updated_at),
    )


def _is_their_turn(record: GameRecord, player_id: str) -> bool:
    state = record.state
    if state.phase is Phase.LOBBY:
        return state.host_id == player_id and len(state.players) >= 3
    return player_id in waiting_for(state)
