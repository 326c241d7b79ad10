"""Turning game records and rule views into their JSON shapes (adding names and image links on the way out).

Deadlines leave the core as epoch seconds and the API as ISO-8601 UTC strings ending in `Z`.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime

from app.core.records import GameRecord, Membership
from app.decks.card_images import CardImages
from app.decks.presenters import cards
from app.games.rematch_ids import rematch_id
from app.games.schemas import (
    CardResultOut,
    GameOut,
    InboxGame,
    OpenGameOut,
    OwesOut,
    RoundOut,
    RoundResultOut,
    SeatOut,
    SettingsOut,
    VoterOut,
    WaitingOut,
    YouOut,
)
from dixit.state import GameState, Phase, RoundResult
from dixit.views import Owed, view_for


def iso(epoch_seconds: int) -> str:
    return datetime.fromtimestamp(epoch_seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def names_in(state: GameState) -> dict[str, str]:
    return {p.player_id: p.name for p in state.players}


def round_result(result: RoundResult, names: Mapping[str, str], images: CardImages) -> RoundResultOut:
    """A reveal, with every player it mentions named (an unknown id, which cannot happen, shows as '')."""
    return RoundResultOut(
        number=result.number,
        storyteller_id=result.storyteller_id,
        storyteller_name=names.get(result.storyteller_id, ""),
        clue=result.clue,
        storyteller_card=result.storyteller_card,
        cards=[
            CardResultOut(
                card_id=c.card_id,
                image_url=images.url_for(c.card_id),
                owner_id=c.owner_id,
                owner_name=names.get(c.owner_id, ""),
                voter_ids=list(c.voter_ids),
                voters=[VoterOut(player_id=v, name=names.get(v, "")) for v in c.voter_ids],
                autoplayed=c.autoplayed,
            )
            for c in result.cards
        ],
        points=dict(result.points),
        autovoted=list(result.autovoted),
    )


def _owes(owed: Owed | None) -> OwesOut | None:
    if owed is None:
        return None
    return OwesOut(
        move=owed.move.value, count=owed.count, counts=list(owed.counts), deadline=iso(owed.deadline)
    )


def game(record: GameRecord, viewer_id: str | None, images: CardImages) -> GameOut:
    view = view_for(record.state, viewer_id)
    names = names_in(record.state)
    rnd = view.round
    return GameOut(
        game_id=view.game_id,
        version=view.version,
        phase=view.phase,
        # SettingsOut names its fields as the rules' settings do (custom_decks stays inside).
        settings=SettingsOut.model_validate(view.settings, from_attributes=True),
        visibility=record.visibility,
        host_id=view.host_id,
        invite_code=record.invite_code if view.you is not None else None,
        players=[
            SeatOut(
                player_id=p.player_id,
                name=p.name,
                score=p.score,
                hand_size=p.hand_size,
                away=p.away,
                vacation_until=None if p.vacation_until is None else iso(p.vacation_until),
                vacation_days_left=p.vacation_days_left,
                offered=p.offered,
                leaving=p.leaving,
            )
            for p in view.players
        ],
        your_turn=view.your_turn,
        round=None
        if rnd is None
        else RoundOut(
            number=rnd.number,
            storyteller_id=rnd.storyteller_id,
            storyteller_name=names.get(rnd.storyteller_id, ""),
            clue=rnd.clue,
            table=cards(images, rnd.table),
            waiting_for=list(rnd.waiting_for),
            waiting=[
                WaitingOut(player_id=w.player_id, name=w.name, move=w.move.value, deadline=iso(w.deadline))
                for w in rnd.waiting
            ],
            deadline=None if rnd.deadline is None else iso(rnd.deadline),
            cards_to_submit=rnd.cards_to_submit,
            votes_allowed=list(rnd.votes_allowed),
            sitting_out=list(rnd.sitting_out),
            autoplayed=list(rnd.autoplayed),
            autovoted=list(rnd.autovoted),
            extended=list(rnd.extended),
        ),
        you=None
        if view.you is None
        else YouOut(
            player_id=view.you.player_id,
            hand=cards(images, view.you.hand),
            submitted=list(view.you.submitted),
            votes=list(view.you.votes),
            owes=_owes(view.you.owes),
            away=view.you.away,
        ),
        last_round=None if view.last_round is None else round_result(view.last_round, names, images),
        winners=list(view.winners),
        end_reason=view.end_reason,
        end_note=view.end_note,
        created_at=record.created_at,
        updated_at=record.updated_at,
        rematch_game_id=rematch_id(view.game_id)
        if view.phase is Phase.FINISHED and view.you is not None
        else None,
    )


def open_game(record: GameRecord) -> OpenGameOut:
    state = record.state
    return OpenGameOut(
        game_id=state.game_id,
        rules=state.settings.rules.value,
        host_id=state.host_id,
        player_count=len(state.players),
        player_names=[p.name for p in state.players],
        max_players=state.settings.max_players,
        created_at=record.created_at,
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
    )
