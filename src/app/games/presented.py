"""Game records presented as the answers' models: a reveal, a lobby, a join page, an inbox entry.

The JSON of a game itself, which moves and views answer, is app.games.presenters' `game_body`, written
as plain data; these answers are validated models, and their classes (app.games.schemas) are imported by
the routes that answer them only, not on a move's or a view's cold start (issue 36).
"""

from __future__ import annotations

from collections.abc import Mapping

from app.core.records import GameRecord, Membership
from app.decks.card_images import CardImages
from app.games.presenters import game_body, iso, names_in, round_result_body
from app.games.rematch_ids import rematch_id
from app.games.schemas import (
    GameOut,
    GamePreview,
    InboxGame,
    OpenGameOut,
    PlayerName,
    RoundResultOut,
    SettingsOut,
    WaitingOut,
)
from dixit.state import Phase, RoundResult


def round_result(
    result: RoundResult,
    names: Mapping[str, str],
    images: CardImages,
    described: Mapping[str, str] | None = None,
) -> RoundResultOut:
    """A reveal, with every player it mentions named (an unknown id, which cannot happen, shows as '').

    `described`: the custom cards' descriptions (app.games.card_descriptions), for their alt text.
    """
    return RoundResultOut.model_validate(round_result_body(result, names, images, described))


def game(
    record: GameRecord,
    viewer_id: str | None,
    images: CardImages,
    described: Mapping[str, str] | None = None,
) -> GameOut:
    return GameOut.model_validate(game_body(record, viewer_id, images, described))


def open_game(record: GameRecord) -> OpenGameOut:
    state = record.state
    return OpenGameOut(
        game_id=state.game_id,
        title=state.settings.title,
        rules=state.settings.rules.value,
        host_id=state.host_id,
        player_count=len(state.players),
        player_names=[p.name for p in state.players],
        max_players=state.settings.max_players,
        created_at=record.created_at,
    )


def game_preview(record: GameRecord, viewer_id: str) -> GamePreview:
    """The join page's view: who plays and by which rules, and never a hand, a card or the invite code."""
    state = record.state
    names = names_in(state)
    seated = viewer_id in names
    free = max(0, state.settings.max_players - len(state.players))
    # A started game takes a newcomer only in a seat the host offered (the first, in seat order).
    offered = len(state.offered) if state.phase not in (Phase.LOBBY, Phase.FINISHED) else 0
    return GamePreview(
        game_id=state.game_id,
        title=state.settings.title,
        phase=state.phase,
        host_id=state.host_id,
        host_name=names.get(state.host_id, ""),
        seated=[PlayerName(player_id=p.player_id, name=p.name) for p in state.players],
        settings=SettingsOut.model_validate(state.settings, from_attributes=True),
        visibility=record.visibility,
        free_seats=free,
        joinable=not seated and ((state.phase is Phase.LOBBY and free > 0) or offered > 0),
        offered_seats=offered,
        you_are_in=seated,
    )


def inbox_game(entry: Membership) -> InboxGame:
    return InboxGame(
        game_id=entry.game_id,
        phase=entry.phase,
        your_turn=entry.your_turn,
        deadline=None if entry.deadline is None else iso(entry.deadline),
        round_number=entry.round_number,
        waiting_for=[w.player_id for w in entry.waiting],
        waiting=[
            WaitingOut(player_id=w.player_id, name=w.name, move=w.move, deadline=iso(w.deadline))  # type: ignore[arg-type]
            for w in entry.waiting
        ],
        player_count=entry.player_count,
        end_reason=entry.end_reason,
        updated_at=entry.updated_at,
        version=entry.version,
        title=entry.title,
        host_id=entry.host_id,
        seated=[PlayerName(player_id=pid, name=name) for pid, name in entry.seats],
        storyteller_id=entry.storyteller_id,
        clue=entry.clue,
        winners=list(entry.winners),
        rematch_game_id=rematch_id(entry.game_id) if entry.phase is Phase.FINISHED else None,
    )
